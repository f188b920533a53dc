/// Building a type that is not bound, as one transient step (`AdHocBuild`).
extension InjectorActor {
    /// Resolves `build`'s binding, a transient one of no table, as `get` resolves a bound one
    /// (the step, then the driver), below the step this task is running, if any.
    nonisolated func run<T: Sendable>(_ build: AdHocBuild<T>) async throws -> T {
        let key = build.binding.key
        do {
            guard !isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: key) }
            return try await ResolutionDriver(self).resolve(build.binding, as: T.self, below: ResolutionFrame.active)
        } catch {
            reportFailure(of: key, error)
            throw error
        }
    }
}
