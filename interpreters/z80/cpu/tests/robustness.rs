//! No memory contents can make the CPU panic or hang a step.

use proptest::prelude::*;
use retro_z80::{Bus, Cpu, FlatBus};

/// A bus whose memory and port reads are pseudo-random, seeded.
struct NoiseBus {
    ram: FlatBus,
    state: u64,
}

impl NoiseBus {
    fn next64(&mut self) -> u64 {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn next(&mut self) -> u8 {
        (self.next64() >> 56) as u8
    }
}

impl Bus for NoiseBus {
    fn read(&mut self, addr: u16) -> u8 {
        self.ram.read(addr)
    }
    fn write(&mut self, addr: u16, value: u8) {
        self.ram.write(addr, value)
    }
    fn input(&mut self, _port: u16) -> u8 {
        self.next()
    }
    fn output(&mut self, _port: u16, _value: u8) {}
    fn peek(&self, addr: u16) -> u8 {
        self.ram.peek(addr)
    }
    fn int_ack(&mut self) -> u8 {
        self.next()
    }
}

fn random_machine(seed: u64) -> (Cpu, NoiseBus) {
    let mut bus = NoiseBus {
        ram: FlatBus::new(),
        state: seed | 1,
    };
    for i in (0..0x10000).step_by(8) {
        let v = bus.next64().to_le_bytes();
        bus.ram.mem[i..i + 8].copy_from_slice(&v);
    }
    let mut cpu = Cpu::new();
    cpu.set_pc(bus.next() as u16 * 256);
    cpu.set_sp(bus.next() as u16 * 256);
    cpu.set_i(bus.next());
    (cpu, bus)
}

/// The longest single step: a 64-prefix chain plus the slowest instruction.
const MAX_STEP: u32 = 64 * 4 + 23;

/// Runs `n` steps with interrupts and NMIs at random moments, checking that every step takes
/// plausible time and that the T-state counter adds up.
fn churn(seed: u64, n: u64) {
    let (mut cpu, mut bus) = random_machine(seed);
    let mut total = 0u64;
    for i in 0..n {
        if i % 97 == 0 {
            let r = bus.next();
            cpu.set_int_line(r & 1 != 0);
            cpu.set_im(r >> 6);
            if r & 0x3E == 0 {
                cpu.trigger_nmi();
            }
        }
        let t = cpu.step(&mut bus);
        assert!((4..=MAX_STEP).contains(&t), "step {i} took {t} T-states");
        total += t as u64;
    }
    assert_eq!(cpu.tstates(), total);
}

/// Random memory images, a million instructions each. Each case is so long that this test fixes
/// its own number of seeds (the `proptest!` macro would let PROPTEST_CASES, 100,000 in CI, take
/// it to hours); `short_runs_never_panic` below follows PROPTEST_CASES.
#[test]
fn a_million_instructions_of_random_memory_never_panic() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 64,
        ..Config::default()
    });
    runner
        .run(&any::<u64>(), |seed| {
            churn(seed, 1_000_000);
            Ok(())
        })
        .unwrap();
}

proptest! {
    #[test]
    fn short_runs_never_panic(seed in any::<u64>()) {
        churn(seed, 2_000);
    }
}
