/// Custom-scoped instances (a ``ScopeCache``), for the asynchronous driver
/// (``SynchronousResolver/step(_:producer:_:)``, ``StepMode/mayWait(_:)``).
extension SynchronousResolver {
    /// The step of a custom-scoped binding for the driver: its cache's instance, or a stop to
    /// build one suspending in the injector that declares it.
    func customStep<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        for driver: StepDriver
    ) throws(SynchronousStop) -> T {
        if let value = binding.lifetime.customCache?.cachedInstance(as: T.self) { return value }
        let frame = try injector.enterStep(binding, below: driver.parent)
        throw driver.suspend(.build(PendingBuild(injector: injector.owner(of: binding), frame: frame)))
    }
}
