//! Key maps: a key that types a character instead (`--map Left=7`), from the command line or from
//! `PROGRAM.keymap.txt` beside the program, so what a program wants of the keyboard lives with the
//! program (programs/rheolism/rheolism.keymap.txt) and the binary names none.
//!
//! A keymap file holds one `KEY=CHAR` a line, with what it does after it for the help (F12);
//! `#` starts a comment. KEY is a key script's name for a key (docs/key-scripts.md: `LEFT`, `UP`,
//! `F1`, a character); CHAR is one character.

use std::path::{Path, PathBuf};

use retro_machine::Key;

/// One mapping: the key, the character it types, and the help line (empty for `--map`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapping {
    pub key: Key,
    pub to: char,
    pub help: String,
}

/// The keymap file for `program`: `NAME.keymap.txt` in its directory.
pub fn file_for(program: &Path) -> PathBuf {
    let stem = program.file_stem().unwrap_or_default().to_string_lossy();
    program.with_file_name(format!("{stem}.keymap.txt"))
}

/// The program's own map (none when it has no keymap file) and then `--map`'s, which win.
pub fn load(program: &Path, maps: &[String]) -> Result<Vec<Mapping>, String> {
    let file = file_for(program);
    let mut out = Vec::new();
    if file.is_file() {
        let bytes = crate::files::read_limited(&file, crate::files::TEXT).map_err(|e| e.to_string())?;
        let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", file.display()))?;
        out = parse_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    for m in maps {
        let mapping = parse_one(m, "").map_err(|e| format!("--map {m}: {e}"))?;
        out.retain(|old: &Mapping| old.key != mapping.key);
        out.push(mapping);
    }
    Ok(out)
}

/// A keymap file's mappings.
pub fn parse_file(text: &str) -> Result<Vec<Mapping>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (map, help) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        out.push(parse_one(map, help.trim()).map_err(|e| format!("line {}: {e}", n + 1))?);
    }
    Ok(out)
}

fn parse_one(map: &str, help: &str) -> Result<Mapping, String> {
    let (key, to) = map
        .rsplit_once('=')
        .ok_or_else(|| format!("`{map}`: expected KEY=CHAR (e.g. Left=7)"))?;
    let mut chars = to.chars();
    let (Some(to), None) = (chars.next(), chars.next()) else {
        return Err(format!("`{map}`: a key types one character, not `{to}`"));
    };
    Ok(Mapping {
        key: key_named(key)?,
        to,
        help: help.to_string(),
    })
}

/// The key a key script calls `name` (one press and its release).
fn key_named(name: &str) -> Result<Key, String> {
    let script = retro_machine::script::parse(name).map_err(|_| format!("`{name}` is not a key name"))?;
    match script.events.as_slice() {
        [press, _release] => Ok(press.key),
        _ => Err(format!("`{name}` is not one key")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keymap_file_maps_keys_with_their_help() {
        let m = parse_file("# Rheolism\nLeft=7  move left\nUP=8\n\n").unwrap();
        assert_eq!(
            m,
            vec![
                Mapping {
                    key: Key::Left,
                    to: '7',
                    help: "move left".into()
                },
                Mapping {
                    key: Key::Up,
                    to: '8',
                    help: String::new()
                },
            ]
        );
        assert!(parse_file("Left=78").unwrap_err().contains("line 1"));
        assert!(parse_file("Sideways=7").unwrap_err().contains("not a key name"));
        assert!(parse_file("Left").unwrap_err().contains("KEY=CHAR"));
    }

    #[test]
    fn the_keymap_file_sits_beside_the_program() {
        assert_eq!(
            file_for(Path::new("programs/rheolism/rheolism.bbc")),
            Path::new("programs/rheolism/rheolism.keymap.txt")
        );
    }
}
