/// The checks ``BindingTable/build(modules:parent:checksCaptives:validatesGraph:)`` makes of a
/// module's declarations and of the table it builds, each problem one ``InjectionError`` naming
/// the key and where it was declared, collected so that one error lists them all.
///
/// ```swift
/// problems += BindingTable.check(declaration, in: module, firstInModule: true)
/// problems += table.aliasProblems()
/// ```
extension BindingTable {
    /// Whether `key`, as `table` resolves it, cannot be built without runtime arguments: a cached
    /// binding knows it already; a transient alias is followed to its end.
    static func needsArguments(_ key: BindingKey, in table: BindingTable) -> Bool {
        var visited: Set<BindingKey> = []
        var current = key
        while visited.insert(current).inserted, let binding = table.binding(for: current) {
            if binding.scope != .transient { return binding.lifetime.needsArguments }
            guard binding.producer.isAlias, let target = binding.dependencies.first else {
                return binding.producer.arguments?.argumentsRequired == true
            }
            current = target
        }
        return false
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
            // an eager or refreshable alias is built by.
            if binding.isEager || binding.scope == .refreshable,
                let taker = Self.argumentTaker(targetKey, in: self), let arguments = taker.producer.arguments
            {
                if binding.isEager && arguments.argumentsRequired {
                    report(
                        "'\(binding.key)' is an eager singleton but '\(taker.key)', which it is bound to, needs "
                            + "runtime arguments: give '\(taker.key)' defaults(...)")
                }
                if binding.scope == .refreshable {
                    report(
                        "'\(binding.key)' cannot be refreshable: '\(taker.key)', which it is bound to, takes runtime "
                            + "arguments, and a refresh rebuilds it without them")
                }
            }
        }
        return problems
    }

    /// The binding `key` is built by, followed through transient aliases, if it takes runtime
    /// arguments: what an eager or refreshable alias to `key` would build without them.
    static func argumentTaker(_ key: BindingKey, in table: BindingTable) -> Binding? {
        var visited: Set<BindingKey> = []
        var current = key
        while visited.insert(current).inserted, let binding = table.binding(for: current) {
            if binding.producer.isAlias, binding.scope == .transient, let target = binding.dependencies.first {
                current = target
                continue
            }
            return binding.producer.arguments?.takesArguments == true ? binding : nil
        }
        return nil
    }
}
