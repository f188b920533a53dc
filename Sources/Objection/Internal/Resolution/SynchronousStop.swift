/// Why a synchronous attempt stopped before it had a value: the typed error of every function on
/// the synchronous path (``SynchronousResolver``, ``Recipe/synchronous``).
///
/// Typed, so that giving way costs no error box and no `catch is` cast. The attempt's entry point,
/// `InjectorActor.attemptSynchronously(in:_:)`, turns it into "a value, or `nil`: suspend", and
/// throws only a real failure on.
@usableFromInline
enum SynchronousStop: Error {
    /// Something the plan did not foresee (a singleton emptied meanwhile, another task building a
    /// scoped instance, an override that suspends, a missing request value): the asynchronous
    /// path takes over, and reports any problem with its full path.
    case mustSuspend
    /// A construction failed: a provider's error or an ``InjectionError``, thrown on unchanged.
    case failed(any Error)

    /// The outcome of a synchronous attempt: its value, or `nil` when it must suspend; a
    /// construction's failure is thrown on.
    @inlinable @inline(__always)
    static func outcome<T>(of attempt: @autoclosure () throws(SynchronousStop) -> T) throws -> T? {
        do {
            return try attempt()
        } catch .mustSuspend {
            return nil
        } catch .failed(let error) {
            throw error
        }
    }

    /// `error`, thrown as a stop again after passing through a `rethrows` function (the
    /// standard library's `_withUnsafeGuaranteedRef` has no typed form): only a stop can come
    /// through there, and anything else would be a construction's failure.
    @inlinable
    static func rethrown(_ error: any Error) -> SynchronousStop {
        error as? SynchronousStop ?? .failed(error)
    }
}
