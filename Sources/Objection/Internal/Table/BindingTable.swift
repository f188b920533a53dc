import Synchronization

/// The bindings an injector declares, linked and immutable once built, over its parent's table.
///
/// Built once from the module list: later modules override earlier ones key by key, declared
/// dependencies are turned into indices, and every configuration problem is collected into one
/// error. A child's table holds only the child's own bindings and points at its parent's table,
/// so creating a child never copies or re-hashes its parent's bindings. Lookups need no lock and
/// no actor hop.
@usableFromInline final class BindingTable: Sendable {
    /// This table's own bindings; ``Binding/index`` is a position in this array.
    let bindings: [Binding]
    let index: BindingIndex
    /// The table consulted for keys this one does not bind.
    var parent: BindingTable? { parentLink.object }
    let parentLink: ChainLink<BindingTable>
    /// The bindings found above this table, if it is deep enough in its chain to keep them.
    let foundAbove: ChainMemo<BindingKey, Binding>?
    /// For the injector that built this table, the injectors found above it by the table they own
    /// (`InjectorActor.injector(owningTable:)`), if this table is deep enough in its chain.
    let ownersFoundAbove: ChainMemo<Int, InjectorActor.Ancestor>?
    /// The identity of the root table of this one's chain: the table of the hierarchy's root.
    let rootID: Int
    /// A process-unique identity, stored in each of this table's bindings.
    let id: Int
    /// How many of ``bindings`` are scoped (see ``Lifetime/scopedIndex``).
    let scopedCount: Int
    /// Whether this table or an ancestor declares a refreshable binding: kept, not walked, so that
    /// a chain of children is not walked once per child.
    let resolvesRefreshable: Bool

    private static let nextID = Atomic<Int>(0)

    private init(bindings: [Binding], id: Int, parent: BindingTable?) {
        self.bindings = bindings
        self.index = BindingIndex(bindings.map(\.key))
        self.parentLink = ChainLink(parent, depth: parent.map { $0.parentLink.depth + 1 } ?? 0)
        self.foundAbove = ChainMemo.forLink(atDepth: parentLink.depth)
        self.ownersFoundAbove = ChainMemo.forLink(atDepth: parentLink.depth)
        self.rootID = parent?.rootID ?? id
        self.id = id
        self.scopedCount = bindings.count(where: { $0.lifetime.scopedIndex != nil })
        self.resolvesRefreshable =
            parent?.resolvesRefreshable == true || bindings.contains(where: \.lifetime.changesOnRefresh)
    }

    /// The binding for `key`: this table's own, else its parent's.
    @usableFromInline func binding(for key: BindingKey) -> Binding? {
        unretainedBinding(for: key)?.takeUnretainedValue()
    }

    /// The binding ``binding(for:)`` returns, not retained: the tables hold their bindings for
    /// as long as an injector over them resolves. The singleton hit reads it this way: no atomic
    /// increment and decrement per `get` (Benchmarks/README, "Why the code is shaped so").
    @inline(__always)
    func unretainedBinding(for key: BindingKey) -> Unmanaged<Binding>? {
        if let position = index.index(of: key) { return Unmanaged.passUnretained(bindings[position]) }
        return bindingAbove(for: key).map(Unmanaged.passUnretained)
    }

    /// The binding for `key` in the tables above this one. A loop, not a call per level: a chain
    /// of children can be as long as the user makes it; deep in one, the memos answer
    /// (``bindingFound(for:)``). No counted path walks a parent table (Benchmarks/README).
    private func bindingAbove(for key: BindingKey) -> Binding? {
        var table = parentLink.object
        while let current = table {
            if let position = current.index.index(of: key) { return current.bindings[position] }
            if current.foundAbove != nil { return current.bindingFound(for: key) }
            table = current.parentLink.object
        }
        return nil
    }

    /// The binding for `key` in this table or above, found through the memos of the tables deep
    /// in a long chain (``ChainMemo``).
    private func bindingFound(for key: BindingKey) -> Binding? {
        ChainMemo.find(key, from: self, parent: \.parent, memo: \.foundAbove) { table in
            table.index.index(of: key).map { table.bindings[$0] }
        }
    }

    /// The binding an injector over this table uses for the `position`-th declared dependency of
    /// `binding`: the one linked when the table was built, when `binding` is this table's own;
    /// else the binding for the dependency's key looked up here, so that this table's overrides
    /// (a child's bindings) win over what `binding`'s own table linked. `nil` when the key is
    /// unbound (a handle such as `Lazy<T>`, or a request value, may still answer it).
    ///
    /// The one statement of the override rule, for both the synchronous and the asynchronous
    /// path (``unretainedDependency(_:of:)`` is the same lookup).
    func dependency(_ position: Int, of binding: Binding) -> Binding? {
        unretainedDependency(position, of: binding)?.takeUnretainedValue()
    }

    /// The binding ``dependency(_:of:)`` returns, not retained: the tables hold their bindings
    /// for as long as an injector over them resolves. The synchronous path saves an atomic
    /// increment and decrement per object with it when the binding is linked in this table (a
    /// dependency found by key, an override, is still copied out of ``binding(for:)``).
    func unretainedDependency(_ position: Int, of binding: Binding) -> Unmanaged<Binding>? {
        if binding.tableID == id, let index = binding.links[position] {
            return Unmanaged.passUnretained(bindings[index])
        }
        return self.binding(for: binding.dependencies[position]).map(Unmanaged.passUnretained)
    }

    /// Whether an injector over this table resolves `key`: it is bound, or provided without a
    /// binding.
    func provides(_ key: BindingKey) -> Bool {
        binding(for: key) != nil || providesWithoutBinding(key)
    }

    /// Whether the injector provides `key` without a binding of its own: a `Factory` or `Lazy`
    /// over a key it provides, the ``ObjectFactory``, or a just-in-time ``Injectable`` type.
    func providesWithoutBinding(_ key: BindingKey) -> Bool {
        if key == BindingKey(ObjectFactory.self) { return true }
        if let handle = key.type as? any ResolutionHandle.Type {
            return provides(BindingKey(handle.target, named: key.name))
        }
        return key.name == nil && key.type is any Injectable.Type
    }

    /// Every binding this table declares: the ones found by key, and the contributions to
    /// collections.
    var declaredBindings: [Binding] {
        bindings + bindings.flatMap(\.contributions.own)
    }

    /// Every eager singleton this table declares.
    var eagerBindings: [Binding] { declaredBindings.filter(\.isEager) }

    /// Runs every module's `configure(_:)` and links the result over `parent`.
    ///
    /// - Parameters:
    ///   - checksCaptives: Whether a singleton reaching a scoped key is a problem: true
    ///     everywhere but in a request scope, whose singletons end with it.
    ///   - validatesGraph: Whether to check known dependencies for missing keys and cycles
    ///     (``GraphValidation``); false for a just-in-time type's declaration, which is resolved
    ///     against whichever injector asks.
    /// - Throws: ``InjectionError/Code/invalidConfiguration`` listing every problem found, or
    ///   ``InjectionError/Code/scopeViolation`` when every problem is a captive dependency.
    static func build(
        modules: [any Module],
        parent: BindingTable? = nil,
        checksCaptives: Bool = true,
        validatesGraph: Bool = true
    ) throws(InjectionError) -> BindingTable {
        var problems: [InjectionError] = []
        var declarations: [BindingDeclaration] = []
        var contributions: [BindingDeclaration] = []
        // The module each contribution came from, and the last module that bound a key directly:
        // a later module's direct binding of a collection replaces earlier contributions to it.
        var contributionModules: [Int] = []
        var directlyBoundIn: [BindingKey: Int] = [:]
        var decorators: [Decorator] = []
        var indexByKey: [BindingKey: Int] = [:]

        for (moduleIndex, module) in modules.enumerated() {
            let binder = Binder()
            module.configure(binder)
            decorators += binder.decorators
            var seenInModule: Set<BindingKey> = []
            for declaration in binder.declarations {
                let first = declaration.collection != nil || seenInModule.insert(declaration.key).inserted
                problems += check(declaration, in: module, firstInModule: first)
                guard declaration.producer != nil else { continue }
                if declaration.collection != nil {
                    contributions.append(declaration)
                    contributionModules.append(moduleIndex)
                    continue
                }
                directlyBoundIn[declaration.key] = moduleIndex
                if let existing = indexByKey[declaration.key] {
                    declarations[existing] = declaration
                } else {
                    indexByKey[declaration.key] = declarations.count
                    declarations.append(declaration)
                }
            }
        }

        // A key's decorators apply together, in the order declared.
        var decoratorsByKey: [BindingKey: [Decorator]] = [:]
        var decoratedKeys: [BindingKey] = []
        for decorator in decorators {
            if decoratorsByKey[decorator.key] == nil { decoratedKeys.append(decorator.key) }
            decoratorsByKey[decorator.key, default: []].append(decorator)
        }
        for key in decoratedKeys {
            let group = decoratorsByKey[key] ?? []
            guard let index = indexByKey[key], let producer = declarations[index].producer,
                let decorated = group.first?.applyAll(group, producer)
            else {
                problems += group.map { decorator in
                    .configurationProblem(
                        "'\(key)' is decorated, but this injector's modules do not bind it",
                        key: key,
                        location: decorator.location
                    )
                }
                continue
            }
            declarations[index].producer = decorated
        }

        contributions = zip(contributions, contributionModules).filter { contribution, module in
            guard let key = contribution.collection?.key, let direct = directlyBoundIn[key] else { return true }
            return direct <= module
        }.map(\.0)

        // Each collection fed by contributions becomes one binding of `[T]`.
        var collections: [(index: Int, collection: any AnyContributedCollection)] = []
        var collected: Set<BindingKey> = []
        for contribution in contributions {
            guard let collection = contribution.collection, collected.insert(collection.key).inserted else { continue }
            if indexByKey[collection.key] != nil {
                problems.append(
                    .configurationProblem(
                        "'\(collection.key)' is bound both directly and by contributions",
                        key: collection.key,
                        location: contribution.location
                    )
                )
                continue
            }
            indexByKey[collection.key] = declarations.count
            collections.append((declarations.count, collection))
            declarations.append(BindingDeclaration(key: collection.key, location: contribution.location))
        }

        let id = nextID.add(1, ordering: .relaxed).newValue
        let links = { (declaration: BindingDeclaration) in declaration.dependencies.map { indexByKey[$0] } }
        let contributed = contributions.enumerated().compactMap { offset, declaration in
            declaration.producer.map { producer in
                Binding(
                    declaration: declaration,
                    producer: producer,
                    links: links(declaration),
                    index: declarations.count + offset,
                    tableID: id,
                    synchronousPlan: nil
                )
            }
        }
        var ownContributions: [BindingKey: [Binding]] = [:]
        for (declaration, binding) in zip(contributions, contributed) {
            guard let key = declaration.collection?.key else { continue }
            ownContributions[key, default: []].append(binding)
        }
        // Over the parent's list of the same collection, which is not copied.
        var contributionsByCollection: [BindingKey: ContributionList] = [:]
        for (key, own) in ownContributions {
            contributionsByCollection[key] = ContributionList(own: own, over: parent?.binding(for: key)?.contributions)
        }
        for (index, collection) in collections {
            declarations[index].producer = collection.producer(of: contributionsByCollection[collection.key] ?? .empty)
        }

        // Every kept declaration has a producer: declarations without one were skipped above.
        let producers = declarations.compactMap(\.producer)
        let linked = declarations.map(links)
        let plan = SynchronousPlan.make(producers: producers, scopes: declarations.map(\.scope), links: linked)
        // A cached binding that cannot be built without runtime arguments — its own recipe, or the
        // one its aliases end at — is not read by a call without them, built or not (Lifetime.swift).
        // Each chain of aliases is walked once: what a walk finds holds for every link on it.
        // Empty, it allocates nothing: only a table with aliases of cached bindings fills it.
        var needsArgumentsFound: [Int: Bool] = [:]
        func needsArguments(_ index: Int) -> Bool {
            let own = producers[index]
            guard own.isAlias else { return own.arguments?.argumentsRequired == true }
            var chain: [Int] = []
            var onChain: Set<Int> = []
            var current = index
            var found = false
            while true {
                if let known = needsArgumentsFound[current] {
                    found = known
                    break
                }
                chain.append(current)
                onChain.insert(current)
                let producer = producers[current]
                guard producer.isAlias, let target = declarations[current].dependencies.first else {
                    found = !producer.isAlias && producer.arguments?.argumentsRequired == true
                    break
                }
                if let targetIndex = indexByKey[target] {
                    // A cycle of aliases is the graph check's to report.
                    guard !onChain.contains(targetIndex) else { break }
                    current = targetIndex
                    continue
                }
                found = parent.map { Self.needsArguments(target, in: $0) } ?? false
                break
            }
            for link in chain { needsArgumentsFound[link] = found }
            return found
        }
        var scopedCount = 0
        let bindings = zip(declarations, producers).enumerated().map { index, pair in
            var scopedIndex: Int?
            if pair.0.scope == .scoped {
                scopedIndex = scopedCount
                scopedCount += 1
            }
            return Binding(
                declaration: pair.0,
                producer: pair.1,
                links: linked[index],
                index: index,
                tableID: id,
                synchronousPlan: plan[index],
                scopedIndex: scopedIndex,
                contributions: contributionsByCollection[pair.0.key] ?? .empty,
                needsArguments: pair.0.scope != .transient && needsArguments(index)
            )
        }
        let table = BindingTable(bindings: bindings, id: id, parent: parent)
        let lookup = GraphLookup(table: table)
        if validatesGraph { problems += table.aliasProblems() + GraphValidation(lookup: lookup).problems() }
        let captives = checksCaptives ? captiveProblems(in: lookup) : []
        if problems.isEmpty && !captives.isEmpty {
            throw .scopeViolations(captives)
        }
        problems += captives
        guard problems.isEmpty else { throw .invalidConfiguration(problems) }
        return table
    }
}
