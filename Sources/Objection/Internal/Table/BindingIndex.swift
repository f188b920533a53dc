/// Maps keys to table indices with a pointer hash instead of SipHash: a lookup on every `get`
/// costs a multiply, a mask and usually one comparison.
///
/// Open addressing with linear probing over a power-of-two table at most half full. Built once
/// and never mutated.
@usableFromInline
struct BindingIndex: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let key: BindingKey
        @usableFromInline let index: Int
    }

    @usableFromInline let slots: [Entry?]
    @usableFromInline let mask: Int

    init(_ keys: [BindingKey]) {
        var capacity = 8
        while capacity < keys.count * 2 { capacity *= 2 }
        var slots = [Entry?](repeating: nil, count: capacity)
        let mask = capacity - 1
        for (index, key) in keys.enumerated() {
            var slot = Self.hash(key) & mask
            while slots[slot] != nil { slot = (slot + 1) & mask }
            slots[slot] = Entry(key: key, index: index)
        }
        self.slots = slots
        self.mask = mask
    }

    @inlinable
    func index(of key: BindingKey) -> Int? {
        var slot = Self.hash(key) & mask
        while let entry = slots[slot] {
            if entry.key == key { return entry.index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Fibonacci hashing of the metatype pointer; names, rarer, go through `Hasher`.
    @inlinable
    static func hash(_ key: BindingKey) -> Int {
        let typeBits = UInt(bitPattern: ObjectIdentifier(key.type))
        var mixed = (typeBits &* 0x9E37_79B9_7F4A_7C15) >> 17
        if let name = key.name { mixed ^= UInt(bitPattern: name.hashValue) }
        return Int(bitPattern: mixed)
    }
}
