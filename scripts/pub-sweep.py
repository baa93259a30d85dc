"""Marks `pub` items `pub(crate)` when no identifier of that name appears where the library is
used from outside: tests/, examples/, benches/, docs/, README.md, src/main.rs and the doc
comments (doc examples) in src/. Names are matched as words, so a common name (`new`) keeps
every item of that name public: the sweep errs on the public side.

    python3 scripts/pub-sweep.py [KEEP,NAMES]

Then `cargo build --release --lib`: an item re-exported by `pub use` (E0364/E0365) or named
in a public signature (private_interfaces) must stay `pub`; run again with those names in
KEEP until it builds without warnings, and delete what dead_code then finds. #28 did this
once on the whole library (docs/architecture.md)."""
import os, re, sys
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
ident = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
outside = set()
def add_text(t):
    outside.update(ident.findall(t))
for base in ['tests', 'examples', 'benches']:
    for d, _, fs in os.walk(os.path.join(root, base)):
        if '/target' in d: continue
        for f in fs:
            if f.endswith(('.rs', '.md', '.sh', '.toml')):
                add_text(open(os.path.join(d, f), errors='ignore').read())
for d, _, fs in os.walk(os.path.join(root, 'docs')):
    for f in fs:
        if f.endswith('.md'): add_text(open(os.path.join(d, f)).read())
add_text(open(os.path.join(root, 'README.md')).read())
add_text(open(os.path.join(root, 'src/main.rs')).read())
# doc comments and doc examples in src
for d, _, fs in os.walk(os.path.join(root, 'src')):
    for f in fs:
        if not f.endswith('.rs'): continue
        for line in open(os.path.join(d, f)):
            s = line.strip()
            if s.startswith('///') or s.startswith('//!'):
                # only code in doc comments matters, but names in prose links do too: keep all
                add_text(s)
keep = set(sys.argv[1].split(',')) if len(sys.argv) > 1 and sys.argv[1] else set()
item = re.compile(r'^(\s*)pub (const fn|unsafe fn|fn|struct|enum|const|static|type|trait) ([A-Za-z_][A-Za-z0-9_]*)')
changed = 0
for d, _, fs in os.walk(os.path.join(root, 'src')):
    for f in fs:
        if not f.endswith('.rs') or f == 'main.rs': continue
        p = os.path.join(d, f)
        lines = open(p).read().split('\n')
        in_macro = 0
        out = []
        for line in lines:
            if 'macro_rules!' in line: in_macro = 1
            m = item.match(line)
            if m and not in_macro and m.group(3) not in outside and m.group(3) not in keep:
                line = line.replace('pub ', 'pub(crate) ', 1)
                changed += 1
            if in_macro and line.startswith('}'): in_macro = 0
            out.append(line)
        open(p, 'w').write('\n'.join(out))
print('changed', changed)
