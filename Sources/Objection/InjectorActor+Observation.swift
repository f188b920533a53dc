/// Reporting to the ``InjectionObserver``.
extension InjectorActor {
    /// Builds a cached instance of `binding` with `construct`, telling the observer, if there is
    /// one, when it starts and how it ends.
    @usableFromInline
    nonisolated(nonsending) func observingConstruction<T>(
        of binding: Binding,
        _ construct: nonisolated(nonsending) () async throws -> T
    ) async throws -> T {
        guard let observer else { return try await construct() }
        observer.constructionStarted(binding.key, scope: binding.scope)
        let start = ContinuousClock.now
        do {
            let value = try await construct()
            observer.constructionFinished(binding.key, scope: binding.scope, duration: .now - start)
            return value
        } catch {
            observer.constructionFailed(binding.key, scope: binding.scope, error: error, duration: .now - start)
            throw error
        }
    }

    /// Runs `get`, a public `get` of `key`, telling the observer, if there is one, when it
    /// throws.
    @inlinable
    nonisolated(nonsending) func reportingFailure<R>(
        of key: BindingKey,
        _ get: nonisolated(nonsending) () async throws -> R
    ) async throws -> R {
        do {
            return try await get()
        } catch {
            reportFailure(of: key, error)
            throw error
        }
    }

    @usableFromInline
    nonisolated func reportFailure(of key: BindingKey, _ error: any Error) {
        observer?.resolutionFailed(key, error: error)
    }
}
