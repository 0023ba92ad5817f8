//! The CPU's only window on the world.

/// Everything the CPU can do to the machine around it: memory reads and writes, opcode fetches,
/// I/O, interrupt acknowledge and RETI. The CPU is generic over its bus, so a machine's bus is
/// monomorphised into the hot loop and its methods inline.
///
/// The CPU calls the methods in the order the real chip drives its bus (opcode fetch, operand reads,
/// then writes; stack pushes high byte first), so a bus that logs its calls sees the Z80's access order.
pub trait Bus {
    /// A memory read cycle (operands, data, stack).
    fn read(&mut self, addr: u16) -> u8;
    /// A memory write cycle.
    fn write(&mut self, addr: u16, value: u8);
    /// An I/O read (`IN`); `port` is the full 16-bit address the Z80 puts on the bus.
    fn input(&mut self, port: u16) -> u8;
    /// An I/O write (`OUT`).
    fn output(&mut self, port: u16, value: u8);
    /// Reads memory without side effects, for debuggers and disassemblers. The CPU never calls it.
    fn peek(&self, addr: u16) -> u8;

    /// An M1 opcode fetch (every opcode and prefix byte). Defaults to [`Bus::read`].
    #[inline(always)]
    fn fetch(&mut self, addr: u16) -> u8 {
        self.read(addr)
    }
    /// The byte a device puts on the data bus when the CPU acknowledges a maskable interrupt: the
    /// low byte of the vector in IM 2, the instruction (an RST) in IM 0; ignored in IM 1. A bus with
    /// nothing driving the data bus reads 0xFF, which is what this default returns.
    #[inline(always)]
    fn int_ack(&mut self) -> u8 {
        0xFF
    }
    /// Called when the CPU executes RETI (daisy-chained devices watch for it).
    #[inline(always)]
    fn reti(&mut self) {}
}

/// 64 KiB of flat RAM and no devices: port reads return 0xFF and port writes are ignored. Useful for
/// tests, for running code fragments, as an example bus, and as the CP/M machine's bus.
///
/// The memory is inline, not behind a `Box`, so that the compiler knows a memory write cannot touch
/// the CPU's registers (a `Box` inside would force the registers to be reloaded after every write).
/// Box the whole bus where 64 KiB on the stack is too much.
#[derive(Clone)]
pub struct FlatBus {
    /// The whole address space.
    pub mem: [u8; 0x10000],
}

impl FlatBus {
    /// All-zero memory.
    pub fn new() -> FlatBus {
        FlatBus { mem: [0; 0x10000] }
    }

    /// Copies `bytes` to memory starting at `addr` (wrapping at the top of memory).
    pub fn load(&mut self, addr: u16, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            self.mem[addr.wrapping_add(i as u16) as usize] = b;
        }
    }
}

impl Default for FlatBus {
    fn default() -> Self {
        FlatBus::new()
    }
}

impl Bus for FlatBus {
    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        self.mem[addr as usize] = value;
    }
    #[inline(always)]
    fn input(&mut self, _port: u16) -> u8 {
        0xFF
    }
    #[inline(always)]
    fn output(&mut self, _port: u16, _value: u8) {}
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}
