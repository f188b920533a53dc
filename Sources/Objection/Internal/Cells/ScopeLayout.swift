/// Where each scoped binding of an injector's tables lives in a request scope's storage: the
/// bindings of each table of the chain, one after the other. Computed once per injector.
struct ScopeLayout: Sendable {
    /// For each table of the chain, its identity and the position of its first scoped binding.
    private let offsets: [(tableID: Int, offset: Int)]
    /// How many slots the layout has.
    let count: Int

    init(table: BindingTable) {
        var offsets: [(tableID: Int, offset: Int)] = []
        var count = 0
        var current: BindingTable? = table
        while let table = current {
            offsets.append((table.id, count))
            count += table.scopedCount
            current = table.parent
        }
        self.offsets = offsets
        self.count = count
    }

    /// The slot of `binding`, if the layout has one.
    func index(of binding: Binding) -> Int? {
        guard let position = binding.scopedIndex else { return nil }
        for entry in offsets where entry.tableID == binding.tableID { return entry.offset + position }
        return nil
    }
}
