/// Where each scoped binding of an injector's tables lives in a request scope's storage: the
/// bindings of each table of the chain that has any, the root's first. Computed once per
/// injector, from its parent's layout, which it extends without copying: a child whose table
/// declares nothing scoped shares its parent's, and one that does adds one segment after its
/// parent's slots, so a chain of 100,000 children, each declaring scoped bindings or not, costs
/// neither a walk nor a copy per child.
struct ScopeLayout: Sendable {
    /// The scoped bindings of one table: where the first of them lives, and the segment of the
    /// nearest table above with any. A segment is shared by every layout below its table.
    private final class Segment: Sendable {
        let tableID: Int
        let base: Int
        let above: Segment?

        init(tableID: Int, base: Int, above: Segment?) {
            self.tableID = tableID
            self.base = base
            self.above = above
        }
    }

    /// The segment of the nearest table of the chain with scoped bindings.
    private let nearest: Segment?
    /// How many slots the layout has.
    let count: Int

    /// The layout of an injector over `table`, whose parent's table (if any) has the layout
    /// `parentLayout`.
    init(table: BindingTable, over parentLayout: ScopeLayout?) {
        let inheritedCount = parentLayout?.count ?? 0
        guard table.scopedCount > 0 else {
            nearest = parentLayout?.nearest
            count = inheritedCount
            return
        }
        // After the parent's slots, so that theirs keep their places and the parent's segments
        // are shared, not shifted into a copy.
        nearest = Segment(tableID: table.id, base: inheritedCount, above: parentLayout?.nearest)
        count = inheritedCount + table.scopedCount
    }

    /// The slot of `binding`, if the layout has one. The nearest table's bindings are found at
    /// once; one declared higher up, after a step per table with scoped bindings between.
    func index(of binding: Binding) -> Int? {
        guard let position = binding.lifetime.scopedIndex else { return nil }
        var segment = nearest
        while let current = segment {
            if current.tableID == binding.tableID { return current.base + position }
            segment = current.above
        }
        return nil
    }
}
