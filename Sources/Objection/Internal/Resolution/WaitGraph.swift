/// Who waits on which in-flight construction, across every task and injector.
///
/// A construction waits on another when its provider resolves a key that is already being built.
/// Each chain may look acyclic on its own while two tasks wait on each other; refusing the edge
/// that would close a loop turns that deadlock into a ``InjectionError/Code/circularDependency``.
/// Waiting callers that are not themselves constructions add no edge: nobody can wait on them.
struct WaitGraph: Sendable {
    private var edges: [ObjectIdentifier: [ObjectIdentifier: Int]] = [:]
    /// How many constructions wait on each node: a node is forgotten when nothing waits on it
    /// and it waits on nothing, found without scanning every edge (a removal stays O(1) with
    /// 100,000 waits in flight).
    private var waitedOnBy: [ObjectIdentifier: Int] = [:]
    private var nodes: [ObjectIdentifier: Construction] = [:]
    /// For each edge, the keys from the waiter's construction to the key it waits on, both
    /// included — the transients, aliases and other steps between them, which hold no
    /// construction — so that a cycle across tasks is named key by key, as one in a task is.
    private var steps: [ObjectIdentifier: [ObjectIdentifier: [BindingKey]]] = [:]

    private static let shared = Lock(WaitGraph())

    /// Records, in the process-wide graph, that `waiter` waits on `awaited`, through `steps`
    /// (the keys from `waiter`'s to `awaited`'s, both included).
    ///
    /// - Returns: The cycle the wait would close (nothing is recorded then), or `nil`.
    static func recordWait(of waiter: Construction, on awaited: Construction, through steps: [BindingKey])
        -> [BindingKey]?
    {
        shared.withLock { $0.insert(waiter: waiter, awaited: awaited, through: steps) }
    }

    /// Records that the construction `frame` runs inside, if any, waits on `awaited`, whose key
    /// is `frame`'s: the wait passes through the steps from that construction's down to `frame`.
    /// A step inside no construction adds no edge: nobody can wait on it.
    ///
    /// - Returns: The construction that now waits, whose wait ``endWait(of:on:)`` ends; `nil`
    ///   when `frame` runs inside none.
    /// - Throws: ``InjectionError/Code/circularDependency`` when the wait would close a cycle,
    ///   naming this task's path, then the rest of the cycle, on the other tasks' paths.
    static func recordWait(of frame: ResolutionFrame, on awaited: Construction) throws(InjectionError)
        -> Construction?
    {
        guard let waiter = frame.construction else { return nil }
        let steps = frame.keys(inside: waiter)
        if let cycle = recordWait(of: waiter, on: awaited, through: steps) {
            throw .circularDependency(cycle: cycle, path: frame.keys + cycle.dropFirst(steps.count))
        }
        return waiter
    }

    /// Forgets one wait recorded by ``recordWait(of:on:through:)``.
    static func endWait(of waiter: Construction, on awaited: Construction) {
        shared.withLock { $0.remove(waiter: waiter, awaited: awaited) }
    }

    /// The keys of `construction` and of what it waits on, one construction after another:
    /// where a construction that is taking too long is stuck. Where it waits on several, the
    /// chain follows the first by key, so that the same situation reads the same.
    static func chain(from construction: Construction) -> [BindingKey] {
        shared.withLock { graph in
            var chain = [construction.key]
            var seen: Set = [ObjectIdentifier(construction)]
            var node = ObjectIdentifier(construction)
            while let awaited = graph.awaited(by: node).min(by: { $0.key.description < $1.key.description }),
                seen.insert(ObjectIdentifier(awaited)).inserted
            {
                chain.append(awaited.key)
                node = ObjectIdentifier(awaited)
            }
            return chain
        }
    }

    /// The constructions `roots` wait on, directly or not, `roots` included.
    static func reachable(from roots: [Construction]) -> Set<ObjectIdentifier> {
        shared.withLock { graph in
            var seen = Set(roots.map(ObjectIdentifier.init))
            var queue = Array(seen)
            while let node = queue.popLast() {
                for next in graph.edges[node, default: [:]].keys where seen.insert(next).inserted { queue.append(next) }
            }
            return seen
        }
    }

    private func awaited(by node: ObjectIdentifier) -> [Construction] {
        edges[node, default: [:]].keys.compactMap { nodes[$0] }
    }

    /// Records that `waiter` waits on `awaited`, unless that closes a cycle.
    ///
    /// - Returns: The keys of the cycle (`waiter -> … -> awaited -> … -> waiter`, every step of
    ///   each wait on it) when the edge would close one, in which case nothing is recorded;
    ///   otherwise `nil`.
    mutating func insert(
        waiter: Construction,
        awaited: Construction,
        through waiterSteps: [BindingKey] = []
    ) -> [BindingKey]? {
        if let loop = path(from: awaited, to: waiter) {
            var cycle = waiterSteps.isEmpty ? [waiter.key, awaited.key] : waiterSteps
            for (from, to) in zip(loop, loop.dropFirst()) {
                let between = steps[ObjectIdentifier(from)]?[ObjectIdentifier(to)] ?? []
                cycle += between.isEmpty ? [to.key] : between.dropFirst()
            }
            return cycle
        }
        let from = ObjectIdentifier(waiter)
        let to = ObjectIdentifier(awaited)
        edges[from, default: [:]][to, default: 0] += 1
        if edges[from]?[to] == 1 {
            waitedOnBy[to, default: 0] += 1
            if !waiterSteps.isEmpty { steps[from, default: [:]][to] = waiterSteps }
        }
        nodes[from] = waiter
        nodes[to] = awaited
        return nil
    }

    /// Removes one `waiter -> awaited` edge recorded by ``insert(waiter:awaited:)``.
    mutating func remove(waiter: Construction, awaited: Construction) {
        let from = ObjectIdentifier(waiter)
        let to = ObjectIdentifier(awaited)
        guard let count = edges[from]?[to] else { return }
        if count > 1 {
            edges[from]?[to] = count - 1
            return
        }
        edges[from]?[to] = nil
        steps[from]?[to] = nil
        if edges[from]?.isEmpty == true {
            edges[from] = nil
            steps[from] = nil
        }
        if let waiters = waitedOnBy[to], waiters > 1 { waitedOnBy[to] = waiters - 1 } else { waitedOnBy[to] = nil }
        for node in [from, to] where edges[node] == nil && waitedOnBy[node] == nil {
            nodes[node] = nil
        }
    }

    /// The nodes on a path `start -> … -> goal`, both included, or `nil` when there is none.
    private func path(from start: Construction, to goal: Construction) -> [Construction]? {
        let goalID = ObjectIdentifier(goal)
        var cameFrom: [ObjectIdentifier: ObjectIdentifier] = [:]
        var queue = [ObjectIdentifier(start)]
        var seen: Set = [ObjectIdentifier(start)]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            if node == goalID {
                var chain = [node]
                while let previous = cameFrom[chain[chain.count - 1]] { chain.append(previous) }
                return chain.reversed().map { $0 == goalID ? goal : (nodes[$0] ?? start) }
            }
            for next in edges[node, default: [:]].keys where seen.insert(next).inserted {
                cameFrom[next] = node
                queue.append(next)
            }
        }
        return nil
    }
}
