//! The arena every resting order lives in: one `Vec` of nodes, freed slots reused through a free
//! list, so resting an order allocates nothing once the arena has grown to the book's size. Each node
//! carries the links of its price level's FIFO queue (see [`crate::ladder`]).

use crate::types::{OrderId, OwnerId, Side};

/// The "no slot" link: the end of a queue or of the free list.
pub(crate) const NIL: usize = usize::MAX;

/// A resting order and its place in its level's queue.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub id: OrderId,
    pub owner: OwnerId,
    pub price: u64,
    pub remaining: u64,
    /// The order before this one at the same level (older), or [`NIL`].
    pub prev: usize,
    /// The order after this one at the same level (newer), or [`NIL`]; the next free slot when free.
    pub next: usize,
    pub side: Side,
}

/// Slots of [`Node`]s addressed by index.
#[derive(Clone, Debug)]
pub(crate) struct Arena {
    nodes: Vec<Node>,
    free: usize,
}

impl Default for Arena {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl Arena {
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            nodes: Vec::with_capacity(capacity),
            free: NIL,
        }
    }

    /// Stores `node` in a free slot (or a new one) and returns the slot.
    pub fn insert(&mut self, node: Node) -> usize {
        if self.free == NIL {
            self.nodes.push(node);
            self.nodes.len() - 1
        } else {
            let slot = self.free;
            self.free = self.nodes[slot].next;
            self.nodes[slot] = node;
            slot
        }
    }

    /// Frees `slot` for reuse; the node must already be unlinked from its level.
    pub fn release(&mut self, slot: usize) {
        self.nodes[slot].next = self.free;
        self.free = slot;
    }

    pub fn get(&self, slot: usize) -> &Node {
        &self.nodes[slot]
    }

    pub fn get_mut(&mut self, slot: usize) -> &mut Node {
        &mut self.nodes[slot]
    }
}
