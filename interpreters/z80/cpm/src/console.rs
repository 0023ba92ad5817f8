//! The console: keyboard input as a queue the program polls, and output as bytes.
//!
//! Input never blocks the machine. Keys (from the terminal front end or a key script) and a byte
//! stream (a headless run's stdin) go into one queue, and are typed the way a person types ahead of
//! a prompt: the next byte is released only when the program is waiting for input (a blocking read,
//! or console status polled repeatedly with no output in between; the machine decides, see
//! `CpmMachine::poll`). Programs such as BBC BASIC poll the console between the characters they
//! print to catch Escape, and a key handed over there would be swallowed. The interrupt keys, Escape
//! (1Bh) and ^C, are the exception: they jump the queue and are there at once, so a running program
//! sees them. When a program needs a character and none is there, the BDOS call is left pending
//! and the machine reports that it waits for input; the call completes when a key arrives.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::time::Duration;

/// Escape and ^C: delivered ahead of anything typed before them, and even while the program is busy.
const INTERRUPT_KEYS: [u8; 2] = [0x1B, 0x03];

/// Where typed input comes from besides pushed keys.
pub enum InputStream {
    /// Only keys pushed with [`Console::push`].
    None,
    /// A byte stream (a pipe or file): read when the queue runs dry. LF reads as CR, since that is
    /// what a CP/M keyboard sends for Return.
    Stream(Box<dyn Read + Send>),
    /// A stream read on a thread of its own ([`InputStream::background`]), for stdin: a read there
    /// may wait for ever (`sleep 60 | retro run`), and the machine and its clock must not.
    Background(Receiver<Vec<u8>>),
}

impl InputStream {
    /// Reads `reader` on its own thread, handing its bytes over as they come.
    pub fn background(mut reader: impl Read + Send + 'static) -> InputStream {
        // A few chunks in flight: a large file piped in is not read far ahead of the program.
        let (tx, rx) = sync_channel(4);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match reader.read(&mut buf) {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        InputStream::Background(rx)
    }
}

/// What of the console decides what the program reads and where its cursor is: the part a
/// debugger's checkpoint keeps (the input stream belongs to the host, not to the machine).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConsoleState {
    queue: VecDeque<u8>,
    column: usize,
    line: Option<(Vec<u8>, usize)>,
}

/// The console's state.
pub struct Console {
    /// Keys and stream bytes not yet released to the program.
    queue: VecDeque<u8>,
    stream: InputStream,
    stream_ended: bool,
    /// Bytes the program wrote, not yet collected by [`Console::take_output`].
    output: Vec<u8>,
    /// The cursor column the BDOS tracks for tab expansion and line editing.
    column: usize,
    /// A BDOS 10 line being typed: the characters so far and the column it started at.
    pub(crate) line: Option<(Vec<u8>, usize)>,
}

impl Default for Console {
    fn default() -> Self {
        Console::new(InputStream::None)
    }
}

impl Console {
    pub fn new(stream: InputStream) -> Console {
        Console {
            queue: VecDeque::new(),
            stream,
            stream_ended: false,
            output: Vec::new(),
            column: 0,
            line: None,
        }
    }

    /// The typed keys not yet read, the column and the line being typed.
    pub fn state(&self) -> ConsoleState {
        ConsoleState {
            queue: self.queue.clone(),
            column: self.column,
            line: self.line.clone(),
        }
    }

    /// Puts back what [`Console::state`] took.
    pub fn set_state(&mut self, s: ConsoleState) {
        self.queue = s.queue;
        self.column = s.column;
        self.line = s.line;
    }

    /// Types a byte.
    pub fn push(&mut self, byte: u8) {
        self.queue.push_back(byte);
    }

    /// Whether the input stream (if any) has ended and every typed byte has been read: a program
    /// waiting for input now waits for keys only.
    pub fn input_exhausted(&self) -> bool {
        self.queue.is_empty() && (self.stream_ended || matches!(self.stream, InputStream::None))
    }

    /// Where the next byte the program may have is: an interrupt key anywhere in the queue, or
    /// the head of the queue when the program is `waiting`.
    fn next(&mut self, waiting: bool) -> Option<usize> {
        if let Some(i) = self.queue.iter().position(|&b| INTERRUPT_KEYS.contains(&b)) {
            return Some(i);
        }
        if !waiting {
            return None;
        }
        self.fill();
        (!self.queue.is_empty()).then_some(0)
    }

    /// Whether a character is there for the program (console status).
    pub fn ready(&mut self, waiting: bool) -> bool {
        self.next(waiting).is_some()
    }

    /// The next character for the program, if there is one.
    pub fn read(&mut self, waiting: bool) -> Option<u8> {
        let i = self.next(waiting)?;
        self.queue.remove(i)
    }

    /// Whether more input may still come from the stream while none is queued: the program is
    /// waiting on a stream read on another thread, not on keys.
    pub fn stream_pending(&self) -> bool {
        self.queue.is_empty() && !self.stream_ended && matches!(self.stream, InputStream::Background(_))
    }

    /// Waits up to `timeout` for the background stream to bring something (at once when input is
    /// queued or there is no background stream), so a waiting run costs no host CPU.
    pub fn wait_for_input(&mut self, timeout: Duration) {
        if !self.stream_pending() {
            return;
        }
        if let InputStream::Background(rx) = &self.stream {
            match rx.recv_timeout(timeout) {
                Ok(chunk) => self.enqueue(&chunk),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => self.stream_ended = true,
            }
        }
    }

    fn enqueue(&mut self, bytes: &[u8]) {
        self.queue
            .extend(bytes.iter().map(|&b| if b == b'\n' { b'\r' } else { b }));
    }

    fn fill(&mut self) {
        if !self.queue.is_empty() || self.stream_ended {
            return;
        }
        let stream = match &mut self.stream {
            InputStream::None => return,
            InputStream::Background(rx) => {
                match rx.try_recv() {
                    Ok(chunk) => self.enqueue(&chunk),
                    Err(TryRecvError::Empty) => {}
                    Err(TryRecvError::Disconnected) => self.stream_ended = true,
                }
                return;
            }
            InputStream::Stream(stream) => stream,
        };
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Ok(0) | Err(_) => {
                    self.stream_ended = true;
                    return;
                }
                Ok(n) => {
                    self.enqueue(&buf[..n]);
                    return;
                }
            }
        }
    }

    /// Writes a byte as BDOS function 6 does: raw, but the column is followed.
    pub fn write_raw(&mut self, byte: u8) {
        self.output.push(byte);
        match byte {
            b'\r' => self.column = 0,
            0x08 => self.column = self.column.saturating_sub(1),
            0x20..=0x7E => self.column += 1,
            _ => {}
        }
    }

    /// Writes a byte as BDOS function 2 does: a tab becomes spaces to the next multiple of 8.
    pub fn write(&mut self, byte: u8) {
        if byte == b'\t' {
            loop {
                self.write_raw(b' ');
                if self.column.is_multiple_of(8) {
                    break;
                }
            }
        } else {
            self.write_raw(byte);
        }
    }

    /// The current output column.
    pub fn column(&self) -> usize {
        self.column
    }

    /// Moves out what the program wrote since the last call.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.output)
    }

    /// Whether output is waiting to be collected.
    pub fn has_output(&self) -> bool {
        !self.output.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_read_only_when_the_queue_is_empty_and_lf_becomes_cr() {
        let mut c = Console::new(InputStream::Stream(Box::new(&b"ab\n"[..])));
        c.push(b'x');
        assert!(
            !c.ready(false),
            "typed bytes wait until the program waits for input"
        );
        assert_eq!(c.read(false), None);
        assert!(c.ready(true));
        assert_eq!(c.read(true), Some(b'x'));
        c.push(0x1B);
        assert_eq!(c.read(false), Some(0x1B), "Escape is there at once");
        assert_eq!(c.read(true), Some(b'a'));
        assert_eq!(c.read(true), Some(b'b'));
        assert_eq!(c.read(true), Some(b'\r'));
        assert_eq!(c.read(true), None);
        assert!(c.input_exhausted());
        c.push(b'k');
        assert!(!c.input_exhausted(), "keys still come after the stream ends");
    }

    /// A reader that gives what the test sends it, and waits (for ever, if need be) until then.
    struct Gate(std::sync::mpsc::Receiver<Vec<u8>>);

    impl Read for Gate {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            match self.0.recv() {
                Ok(bytes) => {
                    buf[..bytes.len()].copy_from_slice(&bytes);
                    Ok(bytes.len())
                }
                Err(_) => Ok(0),
            }
        }
    }

    #[test]
    fn a_background_stream_never_blocks_the_program() {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut c = Console::new(InputStream::background(Gate(rx)));
        assert!(!c.ready(true), "nothing yet, and asking does not wait");
        assert!(c.stream_pending() && !c.input_exhausted());
        tx.send(b"ab\n".to_vec()).unwrap();
        c.wait_for_input(Duration::from_secs(5));
        assert_eq!(
            [c.read(true), c.read(true), c.read(true)],
            [Some(b'a'), Some(b'b'), Some(b'\r')]
        );
        drop(tx);
        c.wait_for_input(Duration::from_secs(5));
        assert!(c.input_exhausted(), "the stream's end is seen");
        assert!(!c.stream_pending());
    }

    #[test]
    fn tabs_expand_to_the_next_multiple_of_eight() {
        let mut c = Console::default();
        for &b in b"ab\tc\r\n\tx" {
            c.write(b);
        }
        assert_eq!(c.take_output(), b"ab      c\r\n        x");
        assert!(!c.has_output());
    }
}
