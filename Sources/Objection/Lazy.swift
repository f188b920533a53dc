/// Builds a `T` once, on first use: Swinject's `Lazy`, Objective-IOC's lazy collaborators.
///
/// Every bound type has one: depend on `Lazy<T>` without binding it. The first use of ``value``
/// resolves `T` from the injector that created the handle; later uses return the same instance.
/// Concurrent first uses share one resolution. A failure is not kept: the next use tries again.
///
/// ```swift
/// final class Mailer: Sendable {
///     let templates: Lazy<TemplateCache>
///     init(templates: Lazy<TemplateCache>) { self.templates = templates }
///
///     func send() async throws {
///         let cache = try await templates.value   // built on the first send only
///     }
/// }
/// ```
///
/// Like ``Factory``, a lazy handle resolves nothing until it is used, so it breaks construction
/// cycles.
public final class Lazy<T: Sendable>: Sendable {
    private let factory: Factory<T>
    /// The handle's shared resolution, stepped like any binding's: its own cell (one value per
    /// handle), built by resolving `T` in a task of its own (SynchronousResolver+Singletons.swift).
    private let handle: Binding
    private let resolveTarget: Recipe<T>

    init(injector: InjectorActor, name: String?) {
        let factory = Factory<T>(injector: injector, name: name)
        self.factory = factory
        resolveTarget = Recipe.opaque { _ in try await factory() }
        handle = Binding.handle(BindingKey(Lazy<T>.self, named: name), resolving: resolveTarget)
    }

    /// The instance, resolved on first use.
    ///
    /// The first use resolves it in a task of its own, which no caller's cancellation or
    /// task-local values reach; it ends as every cached construction does (see <doc:ScopesAndLifetimes>).
    ///
    /// - Throws: Like ``InjectorActor/get(_:named:)``; a failure is not kept;
    ///   ``InjectionError/Code/shutDown`` once the injector that made the handle, or the one that
    ///   owns `T`'s binding (a child's root), has begun shutting down, even when the instance was
    ///   built before.
    public var value: T {
        get async throws {
            let key = BindingKey(T.self, named: factory.name)
            let injector = try factory.objects.runningInjector(for: key)
            // Built: the step's own first read, without entering it. A value an injector-wide
            // cache built is handed out while the injector that owns that cache runs, as `get`
            // would — through an alias or just in time too: a child's root that shut down has
            // disposed it. A scoped target's lives in the nearest request scope, which ends before
            // a child made in it does.
            if let built = handle.lifetime.cell?.value(as: T.self) {
                if let owner = injector.cacheOwner(of: key), owner.isShutDown {
                    throw InjectionError.shutDown(isScope: owner.isScope, key: key)
                }
                return built
            }
            // A refreshable binding, or an alias to one, is read anew each time, as the generation
            // of the request that reads it (RefreshingWithoutARestart.md): a cached one would
            // outlive its refresh. Its handle's cell is never filled, so the read above never
            // answers for it.
            if let target = try injector.binding(for: key, as: T.self),
                target.lifetime.changesOnRefresh
                    || injector.aliasChainEnd(from: target)?.lifetime.changesOnRefresh == true
            {
                return try await factory()
            }
            // The step using the handle, if any, is the handle's parent: a step which needs this
            // handle while the handle needs it ends in a cycle error, not a wait without end.
            return try await ResolutionDriver(injector).resolve(
                handle, producer: resolveTarget, below: ResolutionFrame.active)
        }
    }

    /// How many callers have joined the handle's construction in flight (a test hook).
    var callersWaiting: Int { handle.lifetime.cell?.construction?.joins ?? 0 }

    /// The instance, resolved on first use; the same as ``value``.
    ///
    /// - Returns: The one instance of this handle.
    /// - Throws: Like ``InjectorActor/get(_:named:)``; a failure is not kept.
    public func callAsFunction() async throws -> T {
        try await value
    }

    /// The instance, resolved on first use; the same as ``value``.
    ///
    /// - Returns: The one instance of this handle.
    /// - Throws: Like ``InjectorActor/get(_:named:)``; a failure is not kept.
    public func get() async throws -> T {
        try await value
    }
}

extension Lazy: ResolutionHandle {
    static var target: any Any.Type { T.self }

    static func make(injector: InjectorActor, name: String?) -> Lazy<T> {
        Lazy(injector: injector, name: name)
    }
}
