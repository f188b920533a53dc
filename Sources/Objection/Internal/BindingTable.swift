import Synchronization

/// The bindings an injector declares, linked and immutable once built, over its parent's table.
///
/// Built once from the module list: later modules override earlier ones key by key, declared
/// dependencies are turned into indices, and every configuration problem is collected into one
/// error. A child's table holds only the child's own bindings and points at its parent's table,
/// so creating a child never copies or re-hashes its parent's bindings. Lookups need no lock and
/// no actor hop.
@usableFromInline
final class BindingTable: Sendable {
    /// This table's own bindings; ``Binding/index`` is a position in this array.
    @usableFromInline let bindings: [Binding]
    @usableFromInline let index: BindingIndex
    /// The table consulted for keys this one does not bind.
    @usableFromInline let parent: BindingTable?
    /// A process-unique identity, stored in each of this table's bindings.
    @usableFromInline let id: Int

    private static let nextID = Atomic<Int>(0)

    private init(bindings: [Binding], id: Int, parent: BindingTable?) {
        self.bindings = bindings
        self.index = BindingIndex(bindings.map(\.key))
        self.parent = parent
        self.id = id
    }

    /// The binding for `key`: this table's own, else its parent's.
    @inlinable
    func binding(for key: BindingKey) -> Binding? {
        if let position = index.index(of: key) { return bindings[position] }
        return parent?.binding(for: key)
    }

    /// Every binding this table declares: the ones found by key, and the contributions to
    /// collections.
    var declaredBindings: [Binding] {
        bindings + bindings.flatMap(\.contributions).filter { $0.tableID == id }
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
        var decorators: [Decorator] = []
        var indexByKey: [BindingKey: Int] = [:]

        for module in modules {
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
                } else if let existing = indexByKey[declaration.key] {
                    declarations[existing] = declaration
                } else {
                    indexByKey[declaration.key] = declarations.count
                    declarations.append(declaration)
                }
            }
        }

        for decorator in decorators {
            guard let index = indexByKey[decorator.key], let producer = declarations[index].producer,
                let decorated = decorator.apply(producer)
            else {
                problems.append(
                    .configurationProblem(
                        "'\(decorator.key)' is decorated, but this injector's modules do not bind it",
                        key: decorator.key,
                        location: decorator.location
                    )
                )
                continue
            }
            declarations[index].producer = decorated
        }

        // Each collection fed by contributions becomes one binding of `[T]`.
        var collections: [(index: Int, collection: any AnyCollection)] = []
        for contribution in contributions {
            guard let collection = contribution.collection,
                !collections.contains(where: { $0.collection.key == collection.key })
            else { continue }
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
        var contributionsByCollection: [BindingKey: [Binding]] = [:]
        for (declaration, binding) in zip(contributions, contributed) {
            guard let key = declaration.collection?.key else { continue }
            contributionsByCollection[key, default: parent?.binding(for: key)?.contributions ?? []].append(binding)
        }
        for (index, collection) in collections {
            declarations[index].producer = collection.producer(of: contributionsByCollection[collection.key] ?? [])
        }

        // Every kept declaration has a producer: declarations without one were skipped above.
        let producers = declarations.compactMap(\.producer)
        let linked = declarations.map(links)
        let plan = SynchronousPlan.make(producers: producers, scopes: declarations.map(\.scope), links: linked)
        let bindings = zip(declarations, producers).enumerated().map { index, pair in
            Binding(
                declaration: pair.0,
                producer: pair.1,
                links: linked[index],
                index: index,
                tableID: id,
                synchronousPlan: plan[index],
                contributions: contributionsByCollection[pair.0.key] ?? []
            )
        }
        let table = BindingTable(bindings: bindings, id: id, parent: parent)
        problems += table.aliasProblems()
        if validatesGraph { problems += GraphValidation(table: table).problems() }
        let captives = checksCaptives ? table.captiveProblems() : []
        if problems.isEmpty && !captives.isEmpty {
            throw .scopeViolations(captives)
        }
        problems += captives
        guard problems.isEmpty else { throw .invalidConfiguration(problems) }
        return table
    }

    /// Problems visible in one declaration on its own.
    private static func check(
        _ declaration: BindingDeclaration,
        in module: any Module,
        firstInModule: Bool
    ) -> [InjectionError] {
        let key = declaration.key
        // Spelled only when there is a problem: naming a type is not free, and this runs for every
        // declaration of every request scope.
        var moduleName: String { String(describing: type(of: module)) }
        var problems: [InjectionError] = []
        func report(_ message: String) {
            problems.append(.configurationProblem(message, key: key, location: declaration.location))
        }
        if !firstInModule {
            report("'\(key)' is bound more than once in \(moduleName)")
        }
        if declaration.targetCount == 0 {
            report("'\(key)' is bound in \(moduleName) but never given a target (toInstance, to(...))")
        } else if declaration.targetCount > 1 {
            report("'\(key)' is given \(declaration.targetCount) targets in \(moduleName); give it one")
        }
        if declaration.isEager && declaration.scope != .singleton {
            report("'\(key)' is an eager singleton but is scoped \(declaration.scope)")
        }
        return problems
    }

    /// Aliases (`to(Concrete.self)`) whose target is unbound or does not conform. A chain of
    /// aliases leading back to itself is a cycle, found by ``GraphValidation``.
    private func aliasProblems() -> [InjectionError] {
        var problems: [InjectionError] = []
        for binding in bindings where binding.producer.isAlias {
            func report(_ message: String) {
                problems.append(.configurationProblem(message, key: binding.key, location: binding.location))
            }
            let targetKey = binding.dependencies[0]
            guard let target = self.binding(for: targetKey) else {
                report("'\(binding.key)' is bound to '\(targetKey)', which is not bound")
                continue
            }
            if binding.producer.targetConforms(target.producer) == false {
                report("'\(binding.key)' is bound to '\(targetKey)', which is not a '\(binding.key.typeName)'")
            }
        }
        return problems
    }

    /// Singletons of this table whose declared dependencies reach a scoped key — through
    /// transients or other singletons — each reported with its path. Opaque providers hide their
    /// dependencies; those are checked when they resolve.
    private func captiveProblems() -> [InjectionError] {
        var memo: [ObjectIdentifier: [BindingKey]?] = [:]
        func pathToScoped(from binding: Binding) -> [BindingKey]? {
            let id = ObjectIdentifier(binding)
            if let known = memo[id] { return known }
            memo[id] = .some(nil)  // Visiting: a cycle reaches nothing new.
            var found: [BindingKey]?
            for key in binding.dependencies {
                guard let dependency = self.binding(for: key) else { continue }
                if dependency.scope == .scoped {
                    found = [binding.key, key]
                } else if let below = pathToScoped(from: dependency) {
                    found = [binding.key] + below
                }
                if found != nil { break }
            }
            memo[id] = .some(found)
            return found
        }
        return bindings.filter { $0.scope == .singleton }.compactMap { singleton in
            guard let path = pathToScoped(from: singleton), let scoped = path.last else { return nil }
            return InjectionError(
                code: .scopeViolation,
                message: "Singleton '\(singleton.key)' depends on scoped '\(scoped)' (\(path.arrowJoined))",
                path: path,
                location: singleton.location
            )
        }
    }
}
