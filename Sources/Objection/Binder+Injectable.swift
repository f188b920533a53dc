extension Binder {
    /// Binds an ``Injectable`` type in `scope`, keeping the construction it declares (Objection's
    /// `bindClass:inScope:`, Blindside's `bind:withScope:`).
    ///
    /// ```swift
    /// final class Garage: Injectable {
    ///     static let injection = Injection(Garage.init)        // transient by default
    /// }
    /// binder.bind(Garage.self, inScope: .singleton)            // one Garage in this injector
    /// ```
    ///
    /// - Parameters:
    ///   - type: The ``Injectable`` type.
    ///   - scope: The lifetime of its instances in this injector.
    ///   - fileID: Captured so configuration errors can point at this line.
    ///   - line: Captured so configuration errors can point at this line.
    /// - Returns: A builder to add an `onDispose` hook.
    @discardableResult
    public func bind<T: Injectable>(
        _ type: T.Type,
        inScope scope: Scope,
        fileID: String = #fileID,
        line: Int = #line
    ) -> ScopedBindingBuilder<T> {
        T.injection.declare(on: bind(type, fileID: fileID, line: line)).inScope(scope)
    }

    /// Binds an ``Injectable`` type as an eager singleton, keeping the construction it declares:
    /// it is built while the injector is created (Objection's `registerEagerSingleton:`).
    ///
    /// ```swift
    /// binder.registerEagerSingleton(MetricsReporter.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The ``Injectable`` type.
    ///   - fileID: Captured so configuration errors can point at this line.
    ///   - line: Captured so configuration errors can point at this line.
    /// - Returns: A builder to add an `onDispose` hook.
    @discardableResult
    public func registerEagerSingleton<T: Injectable>(
        _ type: T.Type,
        fileID: String = #fileID,
        line: Int = #line
    ) -> ScopedBindingBuilder<T> {
        T.injection.declare(on: bind(type, fileID: fileID, line: line)).asEagerSingleton()
    }
}
