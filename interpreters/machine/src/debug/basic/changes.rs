//! The user's assignments (`set`) as events of the run: each is kept with the statement count
//! it was made before, so that a run that goes back (a replay, or a checkpoint restored and run
//! forward) makes it again when it reaches that statement. `A`: the assignment as the dialect
//! runs it (text, or tokenized bytes).

#[derive(Clone, Debug)]
pub struct Changes<A> {
    /// (the statement count it was made before, the assignment), in count order.
    made: Vec<(u64, A)>,
    /// The next of `made` the run has still to make.
    next: usize,
}

impl<A> Default for Changes<A> {
    fn default() -> Self {
        Changes {
            made: Vec::new(),
            next: 0,
        }
    }
}

impl<A> Changes<A> {
    /// The user assigned before statement `now`: an event of the run from now on. Those recorded
    /// after it belonged to a future that no longer happens. Made now, so the run goes on past it.
    pub fn record(&mut self, now: u64, assignment: A) {
        self.made.retain(|(at, _)| *at <= now);
        self.made.push((now, assignment));
        self.next = self.made.len();
    }

    /// A new run: the assignments belonged to the run before.
    pub fn clear(&mut self) {
        self.made.clear();
        self.next = 0;
    }

    pub fn is_empty(&self) -> bool {
        self.made.is_empty()
    }

    /// Every assignment made before statement `count` (a replay from the start reaches it).
    pub fn at(&self, count: u64) -> impl Iterator<Item = &A> {
        self.made.iter().filter(move |(c, _)| *c == count).map(|(_, a)| a)
    }

    /// The statement count of the next assignment the run has still to make.
    pub fn next_at(&self) -> Option<u64> {
        self.made.get(self.next).map(|(at, _)| *at)
    }

    /// The assignments due before statement `count`, to make now (those the run is already
    /// past are passed over).
    pub fn due(&mut self, count: u64) -> Vec<&A> {
        let from = self.next;
        while self.made.get(self.next).is_some_and(|(at, _)| *at <= count) {
            self.next += 1;
        }
        self.made[from..self.next]
            .iter()
            .filter(|(at, _)| *at == count)
            .map(|(_, a)| a)
            .collect()
    }

    /// The run went back to statement `now`: the assignments from it on are still to make.
    pub fn rewind(&mut self, now: u64) {
        self.next = self.made.partition_point(|(at, _)| *at < now);
    }
}

/// A user's change to the program's state, as a dialect keeps it in [`Changes`]: an assignment
/// in the dialect's form (`set`), or bytes written to memory from an address (`load`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change<A> {
    Assign(A),
    Memory(usize, Vec<u8>),
}
