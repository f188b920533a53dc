/// The build-time check of the graph the modules declare: every known dependency is bound, and
/// no chain of known dependencies leads back to where it started.
///
/// Known dependencies are those of autowired functions, aliases and injected properties (see
/// ``Binding/knownDependencies``); an opaque provider's show only when it runs, and are checked
/// then. The walk starts at the new table's own bindings and looks every dependency up through
/// the new table, as the new injector would: its own bindings, then its ancestors'. A singleton
/// of an ancestor is built by that ancestor, with that ancestor's bindings, and was checked when
/// the ancestor was built, so the walk stops there. `Factory` and `Lazy` handles end a chain, as
/// they do at run time. An unbound ``Injectable`` type is walked through its own declaration
/// (``GraphLookup``).
///
/// The walk is iterative, so that a very deep graph cannot exhaust the stack, and visits each
/// binding once.
struct GraphValidation {
    private let lookup: GraphLookup

    init(lookup: GraphLookup) {
        self.lookup = lookup
    }

    /// Every missing dependency and every cycle, each with its path.
    func problems() -> [InjectionError] {
        // The common request scope binds plain values: nothing to walk.
        guard lookup.table.bindings.contains(where: \.hasEdges) else { return [] }
        var walk = Walk(lookup: lookup)
        for binding in lookup.table.declaredBindings {
            walk.visit(binding)
        }
        return walk.problems
    }

    /// One depth-first walk over the graph, remembering what it has finished.
    private struct Walk {
        let lookup: GraphLookup
        var table: BindingTable { lookup.table }
        var problems: [InjectionError] = []
        /// Where a binding sits on ``stack`` while it is being walked; `nil` once it is finished.
        private var positions: [ObjectIdentifier: Int?] = [:]
        private var stack: [(binding: Binding, next: [Binding], cursor: Int)] = []
        private var reportedCycles: Set<Set<ObjectIdentifier>> = []

        init(lookup: GraphLookup) {
            self.lookup = lookup
        }

        mutating func visit(_ start: Binding) {
            guard positions[ObjectIdentifier(start)] == nil else { return }
            push(start)
            while let top = stack.last {
                guard top.cursor < top.next.count else {
                    positions[ObjectIdentifier(top.binding)] = .some(nil)
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].cursor += 1
                let child = top.next[top.cursor]
                switch positions[ObjectIdentifier(child)] {
                case nil:
                    push(child)
                case .some(let position?):
                    reportCycle(from: position, back: child)
                case .some(nil):
                    break
                }
            }
        }

        private mutating func push(_ binding: Binding) {
            positions[ObjectIdentifier(binding)] = stack.count
            stack.append((binding, dependencies(of: binding), 0))
        }

        /// The bindings `binding` depends on, as far as the walk follows them; reports the
        /// dependencies nothing binds.
        private mutating func dependencies(of binding: Binding) -> [Binding] {
            // A collection resolves its contributions directly, not by key. Inherited ones are
            // walked again only when one of them is resolved with this table's bindings.
            let contributions = binding.contributions
            var next = (contributions.reachesChildBindings ? contributions.all : contributions.own).filter(isWalked)
            for key in binding.knownDependencies {
                if let dependency = lookup.binding(for: key) {
                    if isWalked(dependency) { next.append(dependency) }
                } else if !table.providesWithoutBinding(key), !binding.producer.isAlias {
                    // An alias's unbound target is reported with the aliases.
                    let path = stack.map(\.binding.key) + [binding.key, key]
                    problems.append(.missingDependency(key, path: path, location: binding.location))
                }
            }
            return next
        }

        /// Whether the walk follows `dependency`: not when an ancestor builds it with its own
        /// bindings (a singleton, refreshable or custom-scoped binding lives in the injector that declares
        /// it) — that ancestor was checked when it was built.
        private func isWalked(_ dependency: Binding) -> Bool {
            let cachedElsewhere = dependency.lifetime.livesWhereDeclared
            guard lookup.isJustInTime(dependency) else { return dependency.tableID == table.id || !cachedElsewhere }
            // A just-in-time singleton belongs to the root, with the root's bindings.
            return table.parent == nil || !cachedElsewhere
        }

        private mutating func reportCycle(from position: Int, back first: Binding) {
            let members = stack[position...].map(\.binding)
            guard reportedCycles.insert(Set(members.map(ObjectIdentifier.init))).inserted else { return }
            let cycle = members.map(\.key) + [first.key]
            problems.append(.declaredCycle(cycle, location: first.location))
        }
    }
}
