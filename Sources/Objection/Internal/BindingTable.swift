/// Every binding of an injector, linked and immutable once built.
///
/// Built once from the module list: later modules override earlier ones key by key, declared
/// dependencies are turned into indices, and every configuration problem is collected into one
/// ``InjectionError/Code/invalidConfiguration`` error. Lookups need no lock and no actor hop.
@usableFromInline
final class BindingTable: Sendable {
    @usableFromInline let bindings: [Binding]
    @usableFromInline let index: BindingIndex

    private init(bindings: [Binding]) {
        self.bindings = bindings
        self.index = BindingIndex(bindings.map(\.key))
    }

    @inlinable
    func binding(for key: BindingKey) -> Binding? {
        guard let position = index.index(of: key) else { return nil }
        return bindings[position]
    }

    func position(of key: BindingKey) -> Int? { index.index(of: key) }

    var eagerBindings: [Binding] { bindings.filter(\.isEager) }

    /// Runs every module's `configure(_:)` and links the result.
    ///
    /// - Throws: ``InjectionError/Code/invalidConfiguration`` listing every problem found.
    static func build(modules: [any Module]) throws(InjectionError) -> BindingTable {
        var problems: [InjectionError] = []
        var declarations: [BindingDeclaration] = []
        var indexByKey: [BindingKey: Int] = [:]

        for module in modules {
            let binder = Binder()
            module.configure(binder)
            var seenInModule: Set<BindingKey> = []
            for declaration in binder.declarations {
                problems += check(declaration, in: module, firstInModule: seenInModule.insert(declaration.key).inserted)
                guard declaration.producer != nil else { continue }
                if let existing = indexByKey[declaration.key] {
                    declarations[existing] = declaration
                } else {
                    indexByKey[declaration.key] = declarations.count
                    declarations.append(declaration)
                }
            }
        }

        // Every kept declaration has a producer: declarations without one were skipped above.
        let producers = declarations.compactMap(\.producer)
        let links = declarations.map { $0.dependencies.map { indexByKey[$0] } }
        let plan = SynchronousPlan.make(producers: producers, scopes: declarations.map(\.scope), links: links)
        let bindings = zip(declarations, producers).enumerated().map { index, pair in
            Binding(
                declaration: pair.0,
                producer: pair.1,
                links: links[index],
                index: index,
                synchronousPlan: plan[index]
            )
        }
        let table = BindingTable(bindings: bindings)
        problems += table.aliasProblems()
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
        let moduleName = String(describing: type(of: module))
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

    /// Aliases (`to(Concrete.self)`) whose target is unbound, does not conform, or leads back to
    /// the alias itself.
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
            var chain = [binding.key, targetKey]
            var step = target
            while step.producer.isAlias, let next = self.binding(for: step.dependencies[0]), !chain.contains(next.key) {
                chain.append(next.key)
                step = next
            }
            if step.producer.isAlias, step.dependencies[0] == binding.key {
                report("'\(binding.key)' is bound to itself: \((chain + [binding.key]).arrowJoined)")
            }
        }
        return problems
    }
}
