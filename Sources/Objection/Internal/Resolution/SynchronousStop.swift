/// Why a resolution step stopped before it had a value: the typed error of every function on the
/// path that does not suspend (``SynchronousResolver``, ``Recipe/synchronous``).
///
/// Typed, and kept to one small payload, so that giving way costs no error box, no `catch is`
/// cast, and no value-witness calls in the recipes of autowired parameter packs, which run this
/// path unspecialised (Benchmarks/README, "Why the code is shaped so"). Where the driver must
/// suspend is therefore not carried here but written to the driver's ``StepDriver`` slot.
@usableFromInline enum SynchronousStop: Error {
    /// Something the plan did not foresee (a singleton emptied meanwhile, another task building a
    /// scoped instance, an override that suspends, a missing request value): the graph built in
    /// place gives way, and the step that started it builds step by step instead, reporting any
    /// problem with its full path.
    case mustSuspend
    /// A construction failed: a provider's error or an ``InjectionError``, thrown on unchanged.
    case failed(any Error)
    /// The driver must suspend where its ``StepDriver/suspension`` slot says.
    case suspended

    /// `error`, thrown as a stop again after passing through a `rethrows` function (the
    /// standard library's `_withUnsafeGuaranteedRef` has no typed form): only a stop can come
    /// through there, and anything else would be a construction's failure.
    static func rethrown(_ error: any Error) -> SynchronousStop {
        error as? SynchronousStop ?? .failed(error)
    }
}
