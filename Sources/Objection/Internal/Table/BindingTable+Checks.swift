/// The checks ``BindingTable/build(modules:parent:checksCaptives:validatesGraph:)`` makes of a
/// module's declarations and of the table it builds, each problem one ``InjectionError`` naming
/// the key and where it was declared, collected so that one error lists them all.
///
/// ```swift
/// problems += BindingTable.check(declaration, in: module, firstInModule: true)
/// problems += table.aliasProblems()
/// ```
extension BindingTable {
    /// The binding `key` ends at as `table` resolves it: followed through transient aliases, to a
    /// cached binding (an alias or not) or a transient that is not an alias.
    static func chainEnd(of key: BindingKey, in table: BindingTable) -> Binding? {
        var visited: Set<BindingKey> = []
        var current = key
        while visited.insert(current).inserted, let binding = table.binding(for: current) {
            guard binding.scope == .transient, binding.producer.isAlias, let target = binding.dependencies.first else {
                return binding
            }
            current = target
        }
        return nil
    }

    /// Whether `key`, as `table` resolves it, cannot be built without runtime arguments: a cached
    /// binding knows it already; a transient alias is followed to its end.
    static func needsArguments(_ key: BindingKey, in table: BindingTable) -> Bool {
        guard let end = chainEnd(of: key, in: table) else { return false }
        if end.scope != .transient { return end.lifetime.needsArguments }
        return end.producer.arguments?.argumentsRequired == true
    }

    /// Problems visible in one declaration on its own.
    static func check(
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
        // Only these two need to know about arguments: the cast is not made for the others. An
        // alias forwards arguments whether or not its target takes any: its target is checked.
        if declaration.isEager || declaration.scope == .refreshable, let producer = declaration.producer,
            !producer.isAlias, let arguments = producer.arguments, arguments.takesArguments
        {
            if declaration.isEager && arguments.argumentsRequired {
                report("'\(key)' is an eager singleton but needs runtime arguments: give it defaults(...)")
            }
            if declaration.scope == .refreshable {
                report(
                    "'\(key)' takes runtime arguments, so it cannot be refreshable: a refresh rebuilds it without them")
            }
        }
        return problems
    }

    /// Aliases (`to(Concrete.self)`) whose target is unbound or does not conform. A chain of
    /// aliases leading back to itself is a cycle, found by ``GraphValidation``.
    func aliasProblems() -> [InjectionError] {
        var problems: [InjectionError] = []
        for binding in bindings where binding.producer.isAlias {
            func report(_ message: String) {
                problems.append(.configurationProblem(message, key: binding.key, location: binding.location))
            }
            let targetKey = binding.dependencies[0]
            guard let target = self.binding(for: targetKey) else {
                if !providesWithoutBinding(targetKey) {
                    report("'\(binding.key)' is bound to '\(targetKey)', which is not bound")
                }
                continue
            }
            if binding.producer.targetConforms(target.producer) == false {
                report("'\(binding.key)' is bound to '\(targetKey)', which is not a '\(binding.key.typeName)'")
            }
            // The rule `check` applies to a binding that takes runtime arguments, applied to what
            // an eager or refreshable alias is built by: through transient aliases, a transient
            // that takes them (a cached end is read, not rebuilt, and answers for itself).
            if binding.isEager || binding.scope == .refreshable, let end = Self.chainEnd(of: targetKey, in: self) {
                if binding.isEager, Self.needsArguments(targetKey, in: self) {
                    report(
                        "'\(binding.key)' is an eager singleton but '\(end.key)', which it is bound to, needs "
                            + "runtime arguments: give '\(end.key)' defaults(...)")
                }
                if binding.scope == .refreshable, end.scope == .transient,
                    end.producer.arguments?.takesArguments == true
                {
                    report(
                        "'\(binding.key)' cannot be refreshable: '\(end.key)', which it is bound to, takes runtime "
                            + "arguments, and a refresh rebuilds it without them")
                }
            }
        }
        return problems
    }
}
