extension BindingTable {
    /// Singletons and refreshable bindings of this table whose declared dependencies reach a
    /// scoped key or a refreshable one — through transients or other singletons — each reported
    /// with its path. Opaque providers hide their dependencies; those are checked when they
    /// resolve.
    static func captiveProblems(in lookup: GraphLookup) -> [InjectionError] {
        var reach = ScopedReach(lookup: lookup) { $0.scope == .scoped }
        var refreshableReach = ScopedReach(lookup: lookup) { $0.scope == .refreshable }
        var singletons = lookup.table.bindings.filter(\.lifetime.isInjectorWide)
        // Just-in-time singletons reached from the declared graph are checked too; the list grows
        // while the walk reaches more of them.
        var checkedJustInTime = 0
        var problems: [InjectionError] = []
        // Only a graph with a refreshable binding is walked for one: the walk's memo allocates,
        // which every injector's creation would pay (the cold stampede's allocation count).
        let reachesRefreshable = lookup.table.resolvesRefreshable
        // A custom scope's cache outlives requests too: it may not keep a refreshable instance.
        for cached in lookup.table.bindings where reachesRefreshable && cached.scope.kind == .custom {
            if let refreshable = refreshableReach.scopedKey(reachedFrom: cached) {
                problems.append(
                    .refreshableCaptured(refreshable, by: cached, path: refreshableReach.path(from: cached)))
            }
        }
        while true {
            for singleton in singletons {
                if let problem = reach.captiveProblem(singleton) { problems.append(problem) }
                if reachesRefreshable, let refreshable = refreshableReach.scopedKey(reachedFrom: singleton) {
                    let path = refreshableReach.path(from: singleton)
                    problems.append(.refreshableCaptured(refreshable, by: singleton, path: path))
                }
            }
            let reached = lookup.justInTime.dropFirst(checkedJustInTime)
            guard !reached.isEmpty else { return problems }
            checkedJustInTime = lookup.justInTime.count
            singletons = reached.filter(\.lifetime.isInjectorWide)
        }
    }
}

extension ScopedReach {
    /// The problem of `singleton` if it reaches a scoped key. Its path ends at that key, or at the
    /// first other singleton on the way, which is reported with its own path: so the paths of a
    /// long chain of singletons add up to the chain's length, not its square.
    mutating func captiveProblem(_ singleton: Binding) -> InjectionError? {
        guard let scoped = scopedKey(reachedFrom: singleton) else { return nil }
        let path = path(from: singleton)
        let through = path.count > 1 && path.last != scoped ? " through singleton '\(path[path.count - 1])'" : ""
        let kind = InjectionError.holderKind(singleton)
        return InjectionError(
            code: .scopeViolation,
            message: "\(kind) '\(singleton.key)' depends on scoped '\(scoped)'\(through) (\(path.arrowJoined))",
            path: path,
            location: singleton.location
        )
    }
}

/// Which bindings reach a scoped key through their known dependencies, each remembered as its
/// next step towards that key, so that the walk and its memory stay linear in the graph's size.
/// The walk keeps its own stack: a long chain cannot exhaust the thread's.
struct ScopedReach {
    /// The next step from a binding towards the scoped key it reaches.
    private enum Step {
        /// The binding depends on the scoped key itself.
        case scoped(BindingKey)
        /// The binding depends on `next`, which reaches `scoped`.
        case through(Binding, scoped: BindingKey)

        var scoped: BindingKey {
            switch self {
            case .scoped(let key), .through(_, let key): key
            }
        }
    }

    let lookup: GraphLookup
    /// Whether a binding is what the walk looks for: a scoped one, or a refreshable one.
    private let isTarget: (Binding) -> Bool
    /// A finished binding's next step, or `nil` inside when it reaches no scoped key.
    private var steps: [ObjectIdentifier: Step?] = [:]

    init(lookup: GraphLookup, reaching isTarget: @escaping (Binding) -> Bool) {
        self.lookup = lookup
        self.isTarget = isTarget
    }

    /// The keys from `start` towards its scoped key, ending at that key or at the first other
    /// singleton on the way.
    func path(from start: Binding) -> [BindingKey] {
        var path = [start.key]
        var step = steps[ObjectIdentifier(start)] ?? nil
        while let current = step {
            switch current {
            case .scoped(let key):
                path.append(key)
                step = nil
            case .through(let next, _):
                path.append(next.key)
                step = next.lifetime.isInjectorWide ? nil : steps[ObjectIdentifier(next)] ?? nil
            }
        }
        return path
    }

    /// The scoped key `start` reaches through its known dependencies, and a collection through
    /// its contributions, if any.
    mutating func scopedKey(reachedFrom start: Binding) -> BindingKey? {
        if let known = steps[ObjectIdentifier(start)] { return known?.scoped }
        // Each frame is a binding and the position of the next dependency to look at.
        var stack: [(binding: Binding, next: Int)] = [(start, 0)]
        var visiting: Set<ObjectIdentifier> = [ObjectIdentifier(start)]
        while let (binding, next) = stack.last {
            // A collection resolves its contributions directly, not by key: they come first.
            let contributions = binding.contributions.all
            let dependencies = binding.knownDependencies
            var found: Step?
            var position = next
            var descend: Binding?
            while position < contributions.count + dependencies.count, found == nil, descend == nil {
                defer { position += 1 }
                let reached =
                    position < contributions.count
                    ? contributions[position] : lookup.binding(for: dependencies[position - contributions.count])
                guard let dependency = reached else { continue }
                if isTarget(dependency) {
                    found = .scoped(dependency.key)
                } else if let known = steps[ObjectIdentifier(dependency)] {
                    found = known.map { .through(dependency, scoped: $0.scoped) }
                } else if !visiting.contains(ObjectIdentifier(dependency)) {
                    descend = dependency  // A cycle reaches nothing new: skipped above.
                }
            }
            stack[stack.count - 1].next = position
            if let descend {
                // Revisit this dependency's result when it is finished: step back one position.
                stack[stack.count - 1].next = position - 1
                visiting.insert(ObjectIdentifier(descend))
                stack.append((descend, 0))
                continue
            }
            steps[ObjectIdentifier(binding)] = .some(found)
            visiting.remove(ObjectIdentifier(binding))
            stack.removeLast()
        }
        return steps[ObjectIdentifier(start)]??.scoped
    }
}
