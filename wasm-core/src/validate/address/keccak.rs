//! Keccak-256, the hash Ethereum uses (the original Keccak padding `0x01`, not SHA3-256's `0x06`),
//! written out here so the core needs no hashing crate: EIP-55 address checksums are taken from it.

const ROUND_CONSTANTS: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808a,
    0x8000000080008000,
    0x000000000000808b,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008a,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000a,
    0x000000008000808b,
    0x800000000000008b,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800a,
    0x800000008000000a,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// Rotation offsets of the rho step, in the order the pi step visits the lanes.
const RHO: [u32; 24] = [
    1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
];

/// Lane indices (x + 5y) the pi step visits, starting after lane 1.
const PI: [usize; 24] = [
    10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
];

/// Bytes absorbed per permutation: 1600 bits of state minus twice the 256-bit output.
const RATE: usize = 136;

/// The Keccak-256 digest of `data`.
pub(crate) fn keccak256(data: &[u8]) -> [u8; 32] {
    sponge(data, 0x01)
}

/// The 256-bit Keccak sponge with the domain padding byte `domain`: `0x01` for Keccak-256, `0x06`
/// for the standardized SHA3-256 (which the tests use to check the permutation against FIPS 202).
fn sponge(data: &[u8], domain: u8) -> [u8; 32] {
    let mut state = [0_u64; 25];
    let mut blocks = data.chunks_exact(RATE);
    for block in &mut blocks {
        absorb(&mut state, block);
    }
    let rest = blocks.remainder();
    let mut last = [0_u8; RATE];
    last[..rest.len()].copy_from_slice(rest);
    last[rest.len()] ^= domain;
    last[RATE - 1] ^= 0x80;
    absorb(&mut state, &last);
    let mut digest = [0_u8; 32];
    for (out, lane) in digest.chunks_exact_mut(8).zip(state) {
        out.copy_from_slice(&lane.to_le_bytes());
    }
    digest
}

fn absorb(state: &mut [u64; 25], block: &[u8]) {
    for (lane, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
        let mut word = [0_u8; 8];
        word.copy_from_slice(bytes);
        *lane ^= u64::from_le_bytes(word);
    }
    keccak_f(state);
}

/// The Keccak-f[1600] permutation: 24 rounds of theta, rho, pi, chi and iota.
fn keccak_f(a: &mut [u64; 25]) {
    for round_constant in ROUND_CONSTANTS {
        let mut c = [0_u64; 5];
        for (x, column) in c.iter_mut().enumerate() {
            *column = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                a[x + 5 * y] ^= d;
            }
        }
        let mut carried = a[1];
        for (&target, &rotation) in PI.iter().zip(&RHO) {
            let next = a[target];
            a[target] = carried.rotate_left(rotation);
            carried = next;
        }
        for y in 0..5 {
            let row = [
                a[5 * y],
                a[5 * y + 1],
                a[5 * y + 2],
                a[5 * y + 3],
                a[5 * y + 4],
            ];
            for x in 0..5 {
                a[5 * y + x] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]);
            }
        }
        a[0] ^= round_constant;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn known_digests() {
        assert_eq!(
            hex(&keccak256(b"")),
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
        assert_eq!(
            hex(&keccak256(b"abc")),
            "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"
        );
        assert_eq!(
            hex(&keccak256(b"The quick brown fox jumps over the lazy dog")),
            "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15"
        );
    }

    #[test]
    fn permutation_matches_sha3_256() {
        // Same permutation and rate as SHA3-256, which differs only in the padding byte; digests
        // from Python's `hashlib.sha3_256(b"a" * n)`, around the 136-byte rate.
        let expected = [
            (
                0,
                "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
            ),
            (
                135,
                "8094bb53c44cfb1e67b7c30447f9a1c33696d2463ecc1d9c92538913392843c9",
            ),
            (
                136,
                "3fc5559f14db8e453a0a3091edbd2bc25e11528d81c66fa570a4efdcc2695ee1",
            ),
            (
                137,
                "f8d6846cedd2ccfadf15c5879ef95af724d799eed7391fb1c91f95344e738614",
            ),
            (
                272,
                "a490357b9b3fb39d0a89a117734e5b020b1f33c7bf3fa3575c396425432003d3",
            ),
            (
                1000,
                "8f3934e6f7a15698fe0f396b95d8c4440929a8fa6eae140171c068b4549fbf81",
            ),
        ];
        for (len, digest) in expected {
            assert_eq!(hex(&sponge(&vec![b'a'; len], 0x06)), digest, "length {len}");
        }
    }
}
