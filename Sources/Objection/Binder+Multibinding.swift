extension Binder {
    /// Contributes one element to the collection `[T]` (Guice's multibinder): plugins, middleware,
    /// health checks. Any module may contribute; resolving `[T]` returns every contribution, in
    /// module order, each built in its own scope. A child injector's contributions follow its
    /// parent's.
    ///
    /// ```swift
    /// binder.contribute((any HealthCheck).self).to(DatabaseCheck.init)
    /// binder.contribute((any HealthCheck).self).toInstance(DiskCheck())
    ///
    /// let checks = try await injector.get([any HealthCheck].self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The element type.
    ///   - name: Qualifies the collection: `contribute(T.self, named: "x")` feeds
    ///     `get([T].self, named: "x")`.
    ///   - fileID: Captured so configuration errors can point at this line.
    ///   - line: Captured so configuration errors can point at this line.
    /// - Returns: A builder on which to choose the contribution's target.
    public func contribute<T: Sendable>(
        _ type: T.Type,
        named name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) -> BindingBuilder<T> {
        let builder = bind(type, named: name, fileID: fileID, line: line)
        declarations[builder.index].collection = ContributedCollection<T>(key: BindingKey([T].self, named: name))
        return builder
    }
}

extension ScopedBindingBuilder {
    /// Also contributes this binding's value, converted by `element`, to the collection `[E]`
    /// (see ``Binder/contribute(_:named:fileID:line:)``): the way to give a binding a role that
    /// code elsewhere looks up by collection, such as "every service to run".
    ///
    /// The contribution resolves this binding each time the collection is resolved, so a
    /// singleton is contributed as its one instance. Contributing to the same collection again
    /// changes nothing.
    ///
    /// ```swift
    /// binder.bind(PostgresClient.self).to(makeClient).asSingleton()
    ///     .contributing(to: (any Service).self) { $0 }
    ///
    /// let services = try await injector.get([any Service].self)
    /// ```
    ///
    /// - Parameters:
    ///   - element: The collection's element type.
    ///   - name: Qualifies the collection, as in `contribute(_:named:)`.
    ///   - convert: Turns this binding's value into an element, typically `{ $0 }` to upcast it.
    /// - Returns: This builder.
    @discardableResult
    public func contributing<E: Sendable>(
        to element: E.Type,
        named name: String? = nil,
        _ convert: @escaping @Sendable (T) -> E
    ) -> ScopedBindingBuilder<T> {
        // Once per collection: saying it twice must not put the value in twice.
        guard binder.declarations[index].contributesTo.insert(BindingKey([E].self, named: name)).inserted else {
            return self
        }
        let declaration = binder.declarations[index]
        // A declared dependency, not a closure: the graph check and `graph(_:)` see the edge.
        let recipe = Recipe<E>.declared(
            synchronous: .recipe { resolver, binding throws(SynchronousStop) in
                convert(try resolver.dependency(T.self, at: 0, of: binding))
            },
            asynchronous: { resolver, binding in convert(try await resolver.dependency(T.self, at: 0, of: binding)) }
        )
        binder.contribute(element, named: name, fileID: declaration.location.fileID, line: declaration.location.line)
            .setTarget(recipe, dependencies: [declaration.key], constructs: false)
        return self
    }
}

/// Makes the binding of a collection `[T]` from its contributions.
struct ContributedCollection<T: Sendable>: AnyContributedCollection {
    let key: BindingKey

    func producer(of contributions: ContributionList) -> any AnyRecipe {
        Recipe<[T]>.declared { resolver, _ in
            var elements: [T] = []
            elements.reserveCapacity(contributions.count)
            for contribution in contributions.all {
                elements.append(
                    try await ResolutionDriver(resolver.injector).resolve(
                        contribution, as: T.self, below: resolver.frame))
            }
            return elements
        }
    }
}

/// The untyped face of ``ContributedCollection``.
protocol AnyContributedCollection: Sendable {
    /// The key of the collection, `[T]` with the contribution's name.
    var key: BindingKey { get }
    func producer(of contributions: ContributionList) -> any AnyRecipe
}
