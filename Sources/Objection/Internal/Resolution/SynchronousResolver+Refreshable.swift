/// The step of a refreshable binding (RefreshingWithoutARestart.md).
extension SynchronousResolver {
    /// The step of a refreshable binding: the generation this caller reads, else the first one
    /// built as a singleton is (its ``InjectorActor/record(_:of:)`` adopts it).
    func refreshableStep<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        for driver: StepDriver
    ) throws(SynchronousStop) -> T {
        if let parent = driver.parent, let holder = parent.enclosingSingleton, !injector.owner(of: holder).isScope {
            // Back to this binding, built on the path: a cycle, which its step reports as one.
            guard parent.isBuilding(binding) else {
                throw .failed(
                    InjectionError.refreshableCaptured(binding.key, by: holder, path: parent.keys + [binding.key]))
            }
            return try claimSingleton(binding, producer: producer, for: driver)
        }
        if let generation = injector.generation(of: binding) { return CellValue.unwrap(generation.box, as: T.self) }
        return try claimSingleton(binding, producer: producer, for: driver)
    }
}
