/// Child injectors and Objection's derived injectors.
extension InjectorActor {
    /// Creates a child injector: it sees every binding of this injector, and its own modules
    /// override them key by key. This injector never sees the child's bindings.
    ///
    /// ```swift
    /// let child = try await injector.child(modules: [TestOverridesModule()])
    /// ```
    ///
    /// - A singleton this injector declares, and the child does not override, is this injector's
    ///   one instance: built here, with its dependencies resolved here, shared with every child.
    /// - A singleton the child declares (or overrides) belongs to the child.
    /// - A transient binding is built in the injector that was asked, so the child's overrides
    ///   reach the transients it inherits.
    ///
    /// The child shares this injector's binding table rather than copying it, so creating one
    /// costs the same whatever this injector's size. Its eager singletons are built as `startup`
    /// says: now, by default.
    ///
    /// - Parameters:
    ///   - modules: The child's own modules, applied over this injector's bindings.
    ///   - startup: When the child's eager singletons are built (see ``Startup``).
    /// - Returns: The child injector.
    /// - Throws: Like ``init(modules:stage:startup:observer:maxResolutionDepth:)``, and
    ///   ``InjectionError/Code/shutDown`` after ``shutdown(within:)``.
    public nonisolated func child(modules: [any Module], startup: Startup = .immediate) async throws -> InjectorActor {
        try checkNotShutDown()
        return try await InjectorActor(
            modules: modules,
            parent: self,
            isScope: false,
            stage: stage,
            startup: startup,
            maxResolutionDepth: maxResolutionDepth
        )
    }

    /// Creates a new root injector from this injector's module stack plus `modules`
    /// (Objection's derived injector). It has its own singletons and builds its eager singletons
    /// as `startup` says (now, by default); this injector is unchanged. It shares nothing built
    /// here, so it may be derived after this injector shut down, and owns what it builds.
    ///
    /// ```swift
    /// let level18 = try await injector.withModules([Level18Module()])
    /// let bounded = try await injector.withModules([Level18Module()], startup: .immediate(within: .seconds(5)))
    /// ```
    ///
    /// - Parameters:
    ///   - modules: Modules applied after the existing stack, overriding it key by key.
    ///   - startup: When the new injector's eager singletons are built (see ``Startup``).
    /// - Returns: The new injector.
    /// - Throws: Like ``init(modules:stage:startup:observer:maxResolutionDepth:)``.
    public nonisolated func withModules(_ modules: [any Module], startup: Startup = .immediate) async throws
        -> InjectorActor
    {
        try await derived(from: self.modules + modules, startup: startup)
    }

    /// Creates a new root injector from this injector's module stack without the modules of type
    /// `type` (Objection's derived injector). A key bound only by those modules becomes unbound;
    /// a key they overrode falls back to the earlier module's binding.
    ///
    /// ```swift
    /// let without = try await injector.withoutModules(ofType: Level17Module.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The module type to leave out.
    ///   - startup: When the new injector's eager singletons are built (see ``Startup``).
    /// - Returns: The new injector.
    /// - Throws: Like ``init(modules:stage:startup:observer:maxResolutionDepth:)``.
    public nonisolated func withoutModules<M: Module>(
        ofType type: M.Type,
        startup: Startup = .immediate
    ) async throws -> InjectorActor {
        try await withoutModules(ofTypes: [type], startup: startup)
    }

    /// Creates a new root injector from this injector's module stack without the modules of any of
    /// `types` (Objection's `withoutModuleOfTypes:`). A key bound only by those modules becomes
    /// unbound; a key they overrode falls back to the latest remaining module's binding.
    ///
    /// ```swift
    /// let trimmed = try await injector.withoutModules(ofTypes: [Level17Module.self, Level18Module.self])
    /// ```
    ///
    /// Unlike chaining ``withoutModules(ofType:startup:)``, this builds one injector, so eager singletons
    /// are built once, and no intermediate injector is left holding its own singletons. A module
    /// is left out when its type is exactly one of `types`; a type the stack does not contain is
    /// ignored.
    ///
    /// - Parameters:
    ///   - types: The module types to leave out.
    ///   - startup: When the new injector's eager singletons are built (see ``Startup``).
    /// - Returns: The new injector.
    /// - Throws: Like ``init(modules:stage:startup:observer:maxResolutionDepth:)``.
    public nonisolated func withoutModules(
        ofTypes types: [any Module.Type],
        startup: Startup = .immediate
    ) async throws -> InjectorActor {
        let dropped = Set(types.map { ObjectIdentifier($0) })
        return try await derived(
            from: modules.filter { !dropped.contains(ObjectIdentifier(Swift.type(of: $0))) },
            startup: startup
        )
    }

    /// A new root from `modules`, with this injector's stage, observer (and the observer's
    /// answers, not asked again) and depth limit.
    private nonisolated func derived(from modules: [any Module], startup: Startup) async throws -> InjectorActor {
        try await InjectorActor(
            modules: modules,
            parent: nil,
            isScope: false,
            stage: stage,
            startup: startup,
            observing: observing,
            maxResolutionDepth: maxResolutionDepth
        )
    }

    /// Throws ``InjectionError/Code/shutDown`` once this injector has been shut down.
    @usableFromInline
    nonisolated func checkNotShutDown() throws(InjectionError) {
        guard !isShutDown else { throw .shutDown(isScope: isScope, key: nil) }
    }
}
