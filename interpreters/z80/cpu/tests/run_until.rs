//! `Cpu::run_until` (the fast loop on a local copy of the registers) matches `Cpu::step` exactly.

use retro_z80::{Cpu, FlatBus};

fn memory(seed: u64, bias: &[u8]) -> FlatBus {
    let mut bus = FlatBus::new();
    let mut s = seed | 1;
    for i in 0..0x10000 {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        let r = s.wrapping_mul(0x2545_F491_4F6C_DD1D);
        // Some bytes from `bias` (prefixes, EI, HALT, LD A,I/R), the rest anything.
        bus.mem[i] = if (r >> 40) & 7 == 0 {
            bias[((r >> 20) as usize) % bias.len()]
        } else {
            (r >> 56) as u8
        };
    }
    bus
}

#[test]
fn run_until_matches_step() {
    let bias = [0xDD, 0xFD, 0xCB, 0xED, 0xFB, 0x76, 0x57, 0x5F, 0xF3];
    for seed in 1..40u64 {
        let mut bus_a = memory(seed, &bias);
        let mut bus_b = bus_a.clone();
        let mut a = Cpu::new();
        let mut b = Cpu::new();
        a.set_pc((seed * 0x0F0F) as u16);
        b.set_pc((seed * 0x0F0F) as u16);
        // Interrupts now and then, so that the slow path is exercised too.
        let stop_at = (seed * 0x1234) as u16;
        let mut n_a = 0u64;
        for k in 0..20_000u64 {
            if a.pc() == stop_at {
                break;
            }
            if k % 5000 == 4999 {
                a.set_int_line(true);
            }
            a.step(&mut bus_a);
            a.set_int_line(false);
            n_a += 1;
        }
        let mut n_b = 0u64;
        for chunk in 0..4u64 {
            if chunk > 0 && b.pc() != stop_at && n_b == chunk * 5000 - 1 {
                // Mirror the interrupt of the stepped run.
                b.set_int_line(true);
                b.step(&mut bus_b);
                b.set_int_line(false);
                n_b += 1;
            }
            let budget = (chunk + 1) * 5000 - 1 - n_b;
            let ran = b.run_until(&mut bus_b, budget, |pc| pc == stop_at);
            n_b += ran;
            if ran < budget {
                break;
            }
        }
        if n_b == 19_999 && b.pc() != stop_at {
            b.set_int_line(true);
            b.step(&mut bus_b);
            b.set_int_line(false);
            n_b += 1;
        }
        assert_eq!(n_a, n_b, "seed {seed}: instruction counts");
        assert_eq!(a, b, "seed {seed}: CPU state");
        assert!(bus_a.mem == bus_b.mem, "seed {seed}: memory");
    }
}
