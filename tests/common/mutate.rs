//! Random edits of text files for the property tests of the file readers (instance files,
//! results directories): inserted, deleted and replaced characters, duplicated, dropped and
//! swapped lines, truncation, a byte-order mark, CRLF line ends.

use proptest::prelude::*;

/// One edit of a text file.
#[derive(Debug, Clone)]
pub enum Mutation {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    DuplicateLine(usize),
    DropLine(usize),
    SwapLines(usize, usize),
    Truncate(usize),
    Bom,
    Crlf,
}

/// Any edit, favouring characters that matter to tilebench's file formats.
pub fn mutation() -> impl Strategy<Value = Mutation> {
    // Characters that matter to the format, and some that should not appear at all.
    let interesting = prop_oneof![
        Just('\t'),
        Just('\n'),
        Just('\r'),
        Just(' '),
        Just('#'),
        Just(':'),
        Just(','),
        Just('-'),
        Just('0'),
        Just('9'),
        Just('\u{feff}'),
        Just('\u{0}'),
        Just('é'),
        any::<char>(),
    ];
    prop_oneof![
        (any::<usize>(), interesting.clone()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), interesting).prop_map(|(i, c)| Mutation::Replace(i, c)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        any::<usize>().prop_map(Mutation::DropLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        Just(Mutation::Bom),
        Just(Mutation::Crlf),
    ]
}

/// `text` with the edit made (positions wrap around the text's length).
pub fn apply(text: &str, m: &Mutation) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at = |i: usize, n: usize| if n == 0 { 0 } else { i % n };
    match *m {
        Mutation::Insert(i, c) => chars.insert(at(i, chars.len() + 1), c),
        Mutation::Delete(i) if !chars.is_empty() => {
            chars.remove(at(i, chars.len()));
        }
        Mutation::Replace(i, c) if !chars.is_empty() => {
            let i = at(i, chars.len());
            chars[i] = c;
        }
        Mutation::DuplicateLine(i) if !lines.is_empty() => {
            let i = at(i, lines.len());
            lines.insert(i, lines[i]);
            return lines.concat();
        }
        Mutation::DropLine(i) if !lines.is_empty() => {
            lines.remove(at(i, lines.len()));
            return lines.concat();
        }
        Mutation::SwapLines(a, b) if !lines.is_empty() => {
            let n = lines.len();
            lines.swap(at(a, n), at(b, n));
            return lines.concat();
        }
        Mutation::Truncate(i) => chars.truncate(at(i, chars.len() + 1)),
        Mutation::Bom => chars.insert(0, '\u{feff}'),
        Mutation::Crlf => return text.replace('\n', "\r\n"),
        _ => {}
    }
    chars.into_iter().collect()
}
