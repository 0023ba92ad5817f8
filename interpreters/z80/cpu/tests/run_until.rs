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

/// Small, irregular budgets and interrupts between them: the loop's exits (budget spent, stop, an
/// instruction that raises attention: EI, HALT, LD A,I/R, an over-long prefix chain) land on every
/// kind of instruction, and R (credited from the budget), Q, MEMPTR and the T-states must come
/// out as `step` leaves them.
#[test]
fn run_until_matches_step_with_small_budgets_and_interrupts() {
    // ED 4F/47 (LD R,A / LD I,A) and ED 5E/56 (IM 2/1) are in reach as well.
    let bias = [
        0xDD, 0xFD, 0xCB, 0xED, 0xFB, 0x76, 0x57, 0x5F, 0x4F, 0x47, 0x5E, 0x56, 0x37, 0x3F,
    ];
    for seed in 1..60u64 {
        let mut bus_a = memory(seed.wrapping_mul(0x9E37_79B9), &bias);
        let mut bus_b = bus_a.clone();
        let mut a = Cpu::new();
        a.set_pc((seed * 0x3C1D) as u16);
        a.set_iff(seed & 1 == 0, true);
        a.set_im((seed % 3) as u8);
        let mut b = a.clone();
        let stop_at = (seed * 0x2F0B) as u16;
        // External events at fixed instruction counts: INT asserted for a while, and NMIs.
        let event = |n: u64, cpu: &mut Cpu| match n % 997 {
            300 => cpu.set_int_line(true),
            340 => cpu.set_int_line(false),
            700 if n.is_multiple_of(2) => cpu.trigger_nmi(),
            _ => {}
        };
        let total = 12_000u64;
        let mut n_a = 0u64;
        while n_a < total && a.pc() != stop_at {
            event(n_a, &mut a);
            if a.pc() == stop_at {
                break;
            }
            a.step(&mut bus_a);
            n_a += 1;
        }
        let mut n_b = 0u64;
        let mut s = seed;
        while n_b < total {
            event(n_b, &mut b);
            // Up to the next instruction count where an event may happen, in pieces of 1-37.
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let to_event = 1
                + (0..997)
                    .find(|k| matches!((n_b + 1 + k) % 997, 300 | 340 | 700))
                    .unwrap();
            let budget = (1 + (s >> 33) % 37).min(to_event).min(total - n_b);
            let mut ran = 0;
            while ran < budget {
                // run_until may return early at an instruction that raises attention; continue.
                let r = b.run_until(&mut bus_b, budget - ran, |pc| pc == stop_at);
                ran += r;
                if r == 0 || b.pc() == stop_at {
                    break;
                }
            }
            n_b += ran;
            if ran < budget {
                break;
            }
        }
        assert_eq!(n_a, n_b, "seed {seed}: instruction counts");
        assert_eq!(a, b, "seed {seed}: CPU state");
        assert_eq!(a.registers(), b.registers(), "seed {seed}: registers");
        assert!(bus_a.mem == bus_b.mem, "seed {seed}: memory");
    }
}
