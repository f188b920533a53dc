/// A collection's contributions in order, a parent's first. A child's list holds its own over its
/// parent's, which it does not copy: adding one contribution to a collection of 100,000 in a child
/// costs one, and a chain of lists as deep as a chain of children is released in a loop
/// (``ChainLink``), not recursively.
///
/// ```swift
/// let list = ContributionList(own: [plugin], over: parentCollection.contributions)
/// for contribution in list.all { … }   // the parent's first
/// ```
final class ContributionList: Sendable {
    /// The contributions the table that made this list declares.
    let own: [Binding]
    /// The list of the same collection in the parent's table, if it has one.
    private let inheritedLink: ChainLink<ContributionList>
    /// How many contributions in all, the inherited ones included.
    let count: Int
    /// Whether this list or one it inherits holds a contribution that a child's graph check walks
    /// again: one resolved with the child's bindings (``Lifetime/livesWhereDeclared`` is false: a
    /// transient or scoped one) that has dependencies the child may bind otherwise. Otherwise
    /// the check needs only the child's own.
    let reachesChildBindings: Bool

    static let empty = ContributionList(own: [], over: nil)

    init(own: [Binding], over inherited: ContributionList?) {
        self.own = own
        self.inheritedLink = ChainLink(inherited, depth: inherited.map { $0.inheritedLink.depth + 1 } ?? 0)
        self.count = own.count + (inherited?.count ?? 0)
        self.reachesChildBindings =
            own.contains { !$0.lifetime.livesWhereDeclared && $0.hasEdges } || inherited?.reachesChildBindings == true
    }

    var isEmpty: Bool { count == 0 }

    /// The inherited list, if any.
    var inherited: ContributionList? { inheritedLink.object }

    /// Every contribution, a parent's first.
    var all: [Binding] {
        // A collection no parent contributes to: its own, as they are.
        guard inherited != nil else { return own }
        var lists: [ContributionList] = []
        var list: ContributionList? = self
        while let current = list {
            if !current.own.isEmpty { lists.append(current) }
            list = current.inherited
        }
        var all: [Binding] = []
        all.reserveCapacity(count)
        for list in lists.reversed() { all += list.own }
        return all
    }
}
