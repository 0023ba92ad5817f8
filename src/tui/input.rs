//! Terminal key events to machine keys.

use ratatui::crossterm::event::{KeyCode, KeyEvent as TermKey, KeyEventKind as TermKind, KeyModifiers};
use retro_machine::{Key, KeyEventKind};

/// What a terminal key means to the front end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Ctrl-Q: always quits, whatever the machine is doing.
    Quit,
    /// Ctrl-C: Escape for the machine; a second one within a second quits.
    Interrupt,
    /// F12: show or hide the help overlay.
    ToggleHelp,
    /// A key for the machine.
    Machine(Key, KeyEventKind),
    /// Nothing we use.
    Ignore,
}

/// Maps a crossterm key event. Auto-repeats count as presses: a repeat types another character,
/// and in the held-key rule it extends the hold.
pub fn map(event: &TermKey) -> Action {
    let kind = match event.kind {
        TermKind::Press | TermKind::Repeat => KeyEventKind::Press,
        TermKind::Release => KeyEventKind::Release,
    };
    if event.modifiers.contains(KeyModifiers::CONTROL)
        && let KeyCode::Char(c @ ('q' | 'Q' | 'c' | 'C')) = event.code
    {
        return match kind {
            KeyEventKind::Press if c.eq_ignore_ascii_case(&'q') => Action::Quit,
            // Auto-repeat of a held Ctrl-C is not a second press.
            KeyEventKind::Press if event.kind == TermKind::Press => Action::Interrupt,
            _ => Action::Ignore,
        };
    }
    let key = match event.code {
        KeyCode::F(12) => {
            return if kind == KeyEventKind::Press {
                Action::ToggleHelp
            } else {
                Action::Ignore
            };
        }
        // Alt (Option) with a character: the C64's Commodore key.
        KeyCode::Char(c) if event.modifiers.contains(KeyModifiers::ALT) => Key::Alt(c),
        // Ctrl with a letter is its control code, as a BBC's keyboard sends it (Ctrl-U clears
        // the line being typed; CP/M reads them); the C64 and workbench key maps drop them.
        KeyCode::Char(c) if event.modifiers.contains(KeyModifiers::CONTROL) && c.is_ascii_alphabetic() => {
            Key::Char(char::from(c.to_ascii_uppercase() as u8 - b'@'))
        }
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Enter => Key::Return,
        KeyCode::Esc => Key::Escape,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Delete => Key::Delete,
        KeyCode::Tab => Key::Tab,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::F(n) => Key::F(n),
        _ => return Action::Ignore,
    };
    Action::Machine(key, kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> TermKey {
        TermKey::new(code, modifiers)
    }

    #[test]
    fn ctrl_q_quits_and_plain_q_is_a_key() {
        assert_eq!(
            map(&press(KeyCode::Char('q'), KeyModifiers::CONTROL)),
            Action::Quit
        );
        assert_eq!(
            map(&press(KeyCode::Char('q'), KeyModifiers::NONE)),
            Action::Machine(Key::Char('q'), KeyEventKind::Press)
        );
    }

    #[test]
    fn ctrl_c_interrupts_and_its_repeats_do_not() {
        assert_eq!(
            map(&press(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Action::Interrupt
        );
        let mut repeat = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
        repeat.kind = TermKind::Repeat;
        assert_eq!(map(&repeat), Action::Ignore);
        assert_eq!(
            map(&press(KeyCode::Char('c'), KeyModifiers::NONE)),
            Action::Machine(Key::Char('c'), KeyEventKind::Press)
        );
    }

    #[test]
    fn ctrl_with_a_letter_is_its_control_code() {
        // Ctrl-U reached the machine as `u`: BBC BASIC's line editor typed it instead of
        // clearing the line. A BBC keyboard sends 1-26 for Ctrl-A..Z.
        assert_eq!(
            map(&press(KeyCode::Char('u'), KeyModifiers::CONTROL)),
            Action::Machine(Key::Char('\u{15}'), KeyEventKind::Press)
        );
        assert_eq!(
            map(&press(
                KeyCode::Char('A'),
                KeyModifiers::CONTROL | KeyModifiers::SHIFT
            )),
            Action::Machine(Key::Char('\u{1}'), KeyEventKind::Press)
        );
        // Not a letter: as it was.
        assert_eq!(
            map(&press(KeyCode::Char('1'), KeyModifiers::CONTROL)),
            Action::Machine(Key::Char('1'), KeyEventKind::Press)
        );
    }

    #[test]
    fn arrows_escape_and_function_keys_reach_the_machine() {
        assert_eq!(
            map(&press(KeyCode::Left, KeyModifiers::NONE)),
            Action::Machine(Key::Left, KeyEventKind::Press)
        );
        assert_eq!(
            map(&press(KeyCode::Esc, KeyModifiers::NONE)),
            Action::Machine(Key::Escape, KeyEventKind::Press)
        );
        assert_eq!(
            map(&press(KeyCode::F(1), KeyModifiers::NONE)),
            Action::Machine(Key::F(1), KeyEventKind::Press)
        );
        assert_eq!(
            map(&press(KeyCode::F(12), KeyModifiers::NONE)),
            Action::ToggleHelp
        );
    }

    #[test]
    fn alt_with_a_character_and_the_page_keys_reach_the_machine() {
        assert_eq!(
            map(&press(KeyCode::Char('a'), KeyModifiers::ALT)),
            Action::Machine(Key::Alt('a'), KeyEventKind::Press)
        );
        assert_eq!(
            map(&press(KeyCode::PageUp, KeyModifiers::NONE)),
            Action::Machine(Key::PageUp, KeyEventKind::Press)
        );
    }

    #[test]
    fn releases_and_repeats_keep_their_meaning() {
        let mut e = press(KeyCode::Char('7'), KeyModifiers::NONE);
        e.kind = TermKind::Release;
        assert_eq!(map(&e), Action::Machine(Key::Char('7'), KeyEventKind::Release));
        e.kind = TermKind::Repeat;
        assert_eq!(map(&e), Action::Machine(Key::Char('7'), KeyEventKind::Press));
    }
}
