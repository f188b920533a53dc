/// Decides, once per table, which transient and scoped bindings can be built without suspending.
///
/// A binding qualifies when its recipe has a synchronous form and each dependency is bound and is
/// either an instance, a singleton (read from its cell, which must be built; those cells are the
/// binding's *frontier*), another qualifying binding, or a scoped binding that must already be
/// built — with no cycle and at most ``maximumDepth`` nested builds, so the thread's stack stays
/// small. Everything else takes the asynchronous path, which checks cycles, depth and missing keys
/// as it goes.
struct SynchronousPlan {
    struct Entry {
        /// Indices of the cached bindings the synchronous build reads.
        let frontier: [Int]
        /// The longest chain of nested transients, this binding included.
        let depth: Int
        /// Whether the build reads or builds a request-scoped instance, so that it must not run
        /// below a singleton (a captive dependency).
        let readsScoped: Bool
    }

    /// How many transients a synchronous build may nest.
    static let maximumDepth = 32

    private enum State {
        case unvisited
        case visiting
        case done(Entry?)
        /// Planned with the recursion stopped below it, `nesting` levels down: the same answer
        /// holds there or deeper, where the recursion stops at least as soon, so it is planned
        /// again only from closer to the top. Without this, a graph whose bindings share
        /// dependencies was planned once per path: exponentially often.
        case cut(Entry?, nesting: Int)
    }

    /// How deep the planning recursion is; past ``maximumDepth`` nothing can qualify, so it stops
    /// there instead of following a long chain to its end on the thread's stack.
    private var nesting = 0
    /// Whether the recursion stopped somewhere below the binding being planned.
    private var stoppedBelow = false

    private let producers: [any AnyRecipe]
    private let scopes: [Scope]
    private let links: [[Int?]]
    private var states: [State]

    /// Plans every binding: the entry at an index is `nil` when that binding must resolve
    /// asynchronously.
    static func make(producers: [any AnyRecipe], scopes: [Scope], links: [[Int?]]) -> [Entry?] {
        var plan = SynchronousPlan(
            producers: producers,
            scopes: scopes,
            links: links,
            states: Array(repeating: .unvisited, count: producers.count)
        )
        return producers.indices.map { plan.entry(for: $0) }
    }

    private mutating func entry(for index: Int) -> Entry? {
        switch states[index] {
        case .done(let entry): return entry
        case .visiting: return nil
        case .cut(let entry, let cutAt) where nesting >= cutAt:
            stoppedBelow = true
            return entry
        case .cut, .unvisited: break
        }
        guard nesting <= Self.maximumDepth else {
            // Too deep below the binding being planned, which therefore does not qualify. This
            // one is planned on its own when its turn comes.
            stoppedBelow = true
            return nil
        }
        let stoppedBefore = stoppedBelow
        stoppedBelow = false
        states[index] = .visiting
        nesting += 1
        let entry = plan(index)
        nesting -= 1
        // A binding refused only because the recursion stopped below it may still qualify when
        // planned from closer: leave it to be planned again from there.
        states[index] = stoppedBelow && nesting > 0 ? .cut(entry, nesting: nesting) : .done(entry)
        stoppedBelow = stoppedBefore || stoppedBelow
        return entry
    }

    private mutating func plan(_ index: Int) -> Entry? {
        guard scopes[index] == .transient || scopes[index] == .scoped, producers[index].isSynchronous else {
            return nil
        }
        var frontier: Set<Int> = []
        var depth = 1
        var readsScoped = scopes[index] == .scoped
        for link in links[index] {
            guard let dependency = link else { return nil }
            if producers[dependency].isInstance { continue }
            if scopes[dependency] == .singleton {
                frontier.insert(dependency)
            } else if let below = entry(for: dependency) {
                frontier.formUnion(below.frontier)
                depth = max(depth, below.depth + 1)
                readsScoped = readsScoped || below.readsScoped
            } else if scopes[dependency] == .scoped {
                frontier.insert(dependency)
                readsScoped = true
            } else {
                return nil
            }
        }
        guard depth <= Self.maximumDepth else { return nil }
        return Entry(frontier: frontier.sorted(), depth: depth, readsScoped: readsScoped)
    }
}
