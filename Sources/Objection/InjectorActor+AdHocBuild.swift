/// Building a type that is not bound, as one transient step (`AdHocBuild`).
extension InjectorActor {
    /// Runs `build` as one transient step below the step this task is running, if any.
    nonisolated func run<T: Sendable>(_ build: AdHocBuild<T>) async throws -> T {
        let key = build.binding.key
        do {
            guard !isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: key) }
            let frame = try enter(build.binding, below: ResolutionFrame.active)
            return try await build.producer.run(in: self, frame: frame, for: build.binding)
        } catch {
            reportFailure(of: key, error)
            throw error
        }
    }
}
