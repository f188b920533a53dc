/// Where each scoped binding of an injector's tables lives in a request scope's storage: the
/// bindings of each table of the chain that has any, one after the other. Computed once per
/// injector, from its parent's layout: a child whose table declares nothing scoped shares its
/// parent's, so a chain of 100,000 children costs neither a walk nor a copy per child.
struct ScopeLayout: Sendable {
    /// For each table of the chain with scoped bindings, its identity and the position of its
    /// first scoped binding, nearest table first.
    private let offsets: [(tableID: Int, offset: Int)]
    /// How many slots the layout has.
    let count: Int

    /// The layout of an injector over `table`, whose parent's table (if any) has the layout
    /// `parentLayout`.
    init(table: BindingTable, over parentLayout: ScopeLayout?) {
        let inherited = parentLayout?.offsets ?? []
        let inheritedCount = parentLayout?.count ?? 0
        guard table.scopedCount > 0 else {
            offsets = inherited
            count = inheritedCount
            return
        }
        offsets = [(table.id, 0)] + inherited.map { ($0.tableID, $0.offset + table.scopedCount) }
        count = table.scopedCount + inheritedCount
    }

    /// The slot of `binding`, if the layout has one.
    func index(of binding: Binding) -> Int? {
        guard let position = binding.lifetime.scopedIndex else { return nil }
        for entry in offsets where entry.tableID == binding.tableID { return entry.offset + position }
        return nil
    }
}
