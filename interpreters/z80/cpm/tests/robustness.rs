//! Any bytes as a .COM program, any console input, any BDOS call with any FCB: the machine never
//! panics, never touches files outside its drive, and stops within its limits.

use proptest::prelude::*;
use retro_z80_cpm::{CommandLine, Console, CpmError, CpmLimits, CpmMachine, Disk, InputStream, MAX_PROGRAM};

/// Programs biased towards BDOS calls: random bytes with `LD C,n; CALL 5` sprinkled in, so the
/// console and file functions see random registers and random FCBs.
fn program() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            3 => any::<u8>().prop_map(|b| vec![b]),
            1 => (0u8..48, any::<u16>()).prop_map(|(f, de)| {
                let [lo, hi] = de.to_le_bytes();
                vec![0x11, lo, hi, 0x0E, f, 0xCD, 0x05, 0x00]
            }),
        ],
        0..200,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #[test]
    fn random_programs_without_a_drive_never_panic(
        prog in program(),
        input in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut m = CpmMachine::new(&prog).unwrap();
        m.console = Console::new(InputStream::Stream(Box::new(std::io::Cursor::new(input))));
        let limits = CpmLimits { max_instructions: Some(5_000) };
        match m.run(Vec::new(), limits) {
            Ok(_) | Err(CpmError::Halted { .. } | CpmError::InstructionLimit { .. } | CpmError::InputEnded { .. }) => {}
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }
}

/// Each case makes a directory and may create files in it: 2,000 cases (CI's 100,000 would take a
/// quarter of an hour of file system calls), run by an explicit runner because the `proptest!`
/// macro lets PROPTEST_CASES override its config; the case above covers the CPU and console paths
/// PROPTEST_CASES times.
#[test]
fn random_programs_with_a_drive_never_panic_or_leave_it() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 2_000,
        failure_persistence: None,
        ..Config::default()
    });
    let cases = (
        program(),
        prop::collection::vec(any::<u8>(), 0..64),
        prop::collection::vec("[ -~]{0,12}", 0..3),
    );
    runner
        .run(&cases, |(prog, input, args)| {
            let outer = tempfile::tempdir().unwrap();
            let drive = outer.path().join("A");
            std::fs::create_dir(&drive).unwrap();
            std::fs::write(drive.join("FILE.TXT"), b"some text").unwrap();
            let mut m = CpmMachine::new(&prog).unwrap();
            m.disk = Some(Disk::new(&drive));
            m.console = Console::new(InputStream::Stream(Box::new(std::io::Cursor::new(input))));
            m.set_command_line(&CommandLine::new(&args));
            let limits = CpmLimits {
                max_instructions: Some(5_000),
            };
            let mut out = Vec::new();
            match m.run(&mut out, limits) {
                Ok(_)
                | Err(
                    CpmError::Halted { .. } | CpmError::InstructionLimit { .. } | CpmError::InputEnded { .. },
                ) => {}
                Err(e) => prop_assert!(false, "unexpected error {e}"),
            }
            // Whatever the program did, only the drive's directory can have changed.
            let outside: Vec<_> = std::fs::read_dir(outer.path())
                .unwrap()
                .flatten()
                .map(|e| e.file_name())
                .collect();
            prop_assert_eq!(outside, vec![std::ffi::OsString::from("A")]);
            prop_assert!(
                std::fs::read_dir(&drive)
                    .unwrap()
                    .flatten()
                    .all(|e| e.file_type().unwrap().is_file())
            );
            Ok(())
        })
        .unwrap();
}

proptest! {
    #[test]
    fn frames_of_random_programs_never_panic(prog in program(), keys in prop::collection::vec(any::<u8>(), 0..16)) {
        use retro_machine::machine::Machine;
        let mut run = retro_z80_cpm::screen::CpmRun::new(CpmMachine::new(&prog).unwrap());
        let held = retro_machine::HeldKeys::new(retro_machine::HoldMode::ReleaseEvents);
        for (i, k) in keys.iter().enumerate() {
            run.machine.console.push(*k);
            run.run_frame(retro_machine::VirtualTime::from_micros(100 * (i as u64 + 1)), &held);
        }
        let _ = run.frame();
    }
}

#[test]
fn a_megabyte_of_random_bytes_is_refused_at_once() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let big: Vec<u8> = (0..1 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    assert!(matches!(CpmMachine::new(&big), Err(CpmError::ProgramTooLarge { len }) if len == 1 << 20));
    // The largest program that fits loads, and runs within its limit.
    let mut m = CpmMachine::new(&big[..MAX_PROGRAM]).unwrap();
    let limits = CpmLimits {
        max_instructions: Some(100_000),
    };
    let _ = m.run(Vec::new(), limits);
}
