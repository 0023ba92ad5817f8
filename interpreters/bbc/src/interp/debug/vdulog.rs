//! The VDU queue as a debugger shows it: the last sequences the driver ran, and what a partial
//! sequence waiting for its parameters will do, in words (`VDU 31,15,24: move the text cursor
//! to (15,24)`).

use crate::vdu::PARAMS;
pub use crate::vdu::log::{LOG_LEN, VduLog};

fn word(s: &[u8], i: usize) -> i32 {
    i16::from_le_bytes([s[i], s[i + 1]]) as i32
}

/// The sequence as a VDU statement would write it: `VDU 31,15,24`, or a quoted run of text.
pub fn spelled(seq: &[u8]) -> String {
    if seq.first().is_some_and(|&b| b >= 32) {
        let text: String = seq
            .iter()
            .map(|&b| if (32..127).contains(&b) { b as char } else { '.' })
            .collect();
        return format!("\"{text}\"");
    }
    let parts: Vec<String> = seq.iter().map(|b| b.to_string()).collect();
    format!("VDU {}", parts.join(","))
}

/// What a complete sequence does.
pub fn meaning(seq: &[u8]) -> String {
    let Some(&code) = seq.first() else {
        return String::new();
    };
    if code >= 32 {
        return if code == 127 && seq.len() == 1 {
            "delete: back one and blank".into()
        } else {
            format!("print {} character(s) at the text cursor", seq.len())
        };
    }
    let p = |i: usize| seq.get(i).copied().unwrap_or(0) as i32;
    match code {
        0 => "does nothing".into(),
        1 => format!("send {} to the printer only", p(1)),
        2 => "printer on".into(),
        3 => "printer off".into(),
        4 => "text at the text cursor".into(),
        5 => "text at the graphics cursor".into(),
        6 => "enable the screen".into(),
        7 => "bell".into(),
        8 => "text cursor left".into(),
        9 => "text cursor right".into(),
        10 => "text cursor down (scroll at the bottom of the window)".into(),
        11 => "text cursor up (scroll at the top of the window)".into(),
        12 => "clear the text window (CLS)".into(),
        13 => "text cursor to the start of the line".into(),
        14 => "paged mode on".into(),
        15 => "paged mode off".into(),
        16 => "clear the graphics window (CLG)".into(),
        17 => {
            let c = p(1);
            if c & 128 != 0 {
                format!("text background colour {}", c & 127)
            } else {
                format!("text foreground colour {c}")
            }
        }
        18 => {
            let c = p(2);
            let which = if c & 128 != 0 { "background" } else { "foreground" };
            format!("graphics {which} colour {} with action {}", c & 127, p(1))
        }
        19 => format!(
            "logical colour {} shows physical {} (rgb {},{},{})",
            p(1),
            p(2),
            p(3),
            p(4),
            p(5)
        ),
        20 => "default colours and palette".into(),
        21 => "disable the screen until VDU 6".into(),
        22 => format!("MODE {}", p(1)),
        23 => match p(1) {
            0 => format!("6845 register {} = {}", p(2), p(3)),
            1 => format!("cursor {}", if p(2) == 0 { "off" } else { "on" }),
            c => format!("define character {c}"),
        },
        24 if seq.len() >= 9 => format!(
            "graphics window ({},{})-({},{})",
            word(seq, 1),
            word(seq, 3),
            word(seq, 5),
            word(seq, 7)
        ),
        25 if seq.len() >= 6 => format!("PLOT {},{},{}", p(1), word(seq, 2), word(seq, 4)),
        26 => "default windows".into(),
        27 => "does nothing".into(),
        28 => format!(
            "text window left {} bottom {} right {} top {}",
            p(1),
            p(2),
            p(3),
            p(4)
        ),
        29 if seq.len() >= 5 => format!("graphics origin ({},{})", word(seq, 1), word(seq, 3)),
        30 => "text cursor home".into(),
        31 => format!("move the text cursor to ({},{})", p(1), p(2)),
        _ => String::new(),
    }
}

/// `VDU 31,15,24: move the text cursor to (15,24)`.
pub fn describe(seq: &[u8]) -> String {
    format!("{}: {}", spelled(seq), meaning(seq))
}

/// What bytes waiting in the queue are: the command and how many parameters it still needs.
pub fn describe_pending(pending: &[u8]) -> String {
    match pending.first() {
        None => "empty (between commands)".into(),
        Some(&code) => {
            let need = PARAMS[(code & 31) as usize] as usize + 1 - pending.len();
            format!(
                "{} waiting for {need} more byte(s): {}",
                spelled(pending),
                meaning(&[code]).split(' ').take(4).collect::<Vec<_>>().join(" ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_read_as_their_vdu_calls() {
        assert_eq!(
            describe(&[31, 15, 24]),
            "VDU 31,15,24: move the text cursor to (15,24)"
        );
        assert_eq!(describe(&[17, 129]), "VDU 17,129: text background colour 1");
        assert_eq!(describe(&[25, 4, 0, 1, 0, 2]), "VDU 25,4,0,1,0,2: PLOT 4,256,512");
        assert_eq!(describe(b"AB"), "\"AB\": print 2 character(s) at the text cursor");
        assert_eq!(describe_pending(&[]), "empty (between commands)");
        assert!(describe_pending(&[31, 3]).starts_with("VDU 31,3 waiting for 1 more byte(s)"));
    }

    #[test]
    fn the_log_keeps_the_last_sequences_and_merges_text() {
        let mut log = VduLog::default();
        for b in b"HI" {
            log.record(&[*b]);
        }
        log.record(&[10]);
        for i in 0..100u8 {
            log.record(&[17, i]);
        }
        assert_eq!(log.total, 103);
        let last: Vec<_> = log.last(2).cloned().collect();
        assert_eq!(last, vec![vec![17, 98], vec![17, 99]]);
        assert_eq!(log.last(1000).count(), LOG_LEN);
    }
}
