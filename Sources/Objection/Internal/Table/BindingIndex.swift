/// Maps keys to table indices with a pointer hash instead of SipHash: a lookup on every `get`
/// costs a multiply, a mask and usually one comparison.
///
/// Open addressing with linear probing over a power-of-two table at most half full. Built once
/// and never mutated.
///
/// A key hashes by its type's address, which moves from build to build (and a name's hash from
/// process to process), so one fixed hash makes a given key collide in some builds and not in
/// others, and a collision on the singleton hit's key is a third of its cost (Benchmarks/README,
/// "Why the code is shaped so"). The index therefore tries a few seeds and keeps the first that
/// gives every key its own first slot — almost always found for tables of a few hundred keys — or
/// else the one with the fewest extra probes.
struct BindingIndex: Sendable {
    struct Entry: Sendable {
        let key: BindingKey
        let index: Int
    }

    let slots: [Entry?]
    let mask: Int
    let seed: UInt

    /// The seeds tried, in order, for a table of at most ``triedUpTo`` keys; a larger one uses the
    /// first (its probes are short on average, and each try costs a placement).
    private static let seeds: [UInt] = (0..<8).map { UInt($0) &* 0x632B_E59B_D9B4_E019 }
    private static var triedUpTo: Int { 4_096 }

    init(_ keys: [BindingKey]) {
        var capacity = 8
        while capacity < keys.count * 2 { capacity *= 2 }
        let mask = capacity - 1
        // One buffer for every try, so that trying seeds allocates nothing more.
        var slots = [Entry?](repeating: nil, count: capacity)
        var best: (seed: UInt, extraProbes: Int)?
        for seed in Self.seeds.prefix(keys.count <= Self.triedUpTo ? Self.seeds.count : 1) {
            let extraProbes = Self.place(keys, in: &slots, mask: mask, seed: seed)
            if extraProbes < best?.extraProbes ?? .max { best = (seed, extraProbes) }
            if extraProbes == 0 { break }
        }
        let seed = best?.seed ?? 0
        // The buffer holds the last try's placement; place again if an earlier seed did better.
        if best?.extraProbes != 0 { _ = Self.place(keys, in: &slots, mask: mask, seed: seed) }
        self.slots = slots
        self.seed = seed
        self.mask = mask
    }

    /// Places `keys` in `slots` (emptied first) with `seed`; returns how many slots past their
    /// first the lookups of all of them probe.
    private static func place(_ keys: [BindingKey], in slots: inout [Entry?], mask: Int, seed: UInt) -> Int {
        for slot in slots.indices { slots[slot] = nil }
        var extraProbes = 0
        for (index, key) in keys.enumerated() {
            var slot = hash(key, seed: seed) & mask
            while slots[slot] != nil {
                slot = (slot + 1) & mask
                extraProbes += 1
            }
            slots[slot] = Entry(key: key, index: index)
        }
        return extraProbes
    }

    @inline(__always)
    func index(of key: BindingKey) -> Int? {
        var slot = Self.hash(key, seed: seed) & mask
        while let entry = slots[slot] {
            if entry.key == key { return entry.index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Fibonacci hashing of the metatype pointer; names, rarer, go through `Hasher`.
    static func hash(_ key: BindingKey, seed: UInt) -> Int {
        let typeBits = UInt(bitPattern: ObjectIdentifier(key.type)) &+ seed
        var mixed = (typeBits &* 0x9E37_79B9_7F4A_7C15) >> 17
        if let name = key.name { mixed ^= UInt(bitPattern: name.hashValue) }
        return Int(bitPattern: mixed)
    }
}
