/// Resolving the health checks, each contribution on its own task (`HealthCheckSource`).
extension InjectorActor {
    /// The name of a source that has no better one until its check exists.
    static let unnamedSource = "health checks"

    /// The sources of this injector's health checks: each contribution to `[any HealthCheck]` on
    /// its own, so that one that cannot be built does not hide the others; a collection bound
    /// directly as one source; none when nothing is bound.
    nonisolated func healthCheckSources() throws -> [HealthCheckSource] {
        let key = BindingKey([any HealthCheck].self)
        guard let collection = try binding(for: key, as: [any HealthCheck].self) else { return [] }
        guard !collection.contributions.isEmpty else {
            return [
                HealthCheckSource(name: Self.unnamedSource) { [self] in
                    try await ResolutionDriver(self).resolve(collection, as: [any HealthCheck].self, below: nil)
                }
            ]
        }
        return collection.contributions.all.map { contribution in
            let built = contribution.producer.instance ?? contribution.builtSingleton(as: (any HealthCheck).self)
            return HealthCheckSource(
                name: healthCheckName(of: contribution),
                ready: (built as? any HealthCheck).map { [$0] }
            ) { [self] in
                [try await ResolutionDriver(self).resolve(contribution, as: (any HealthCheck).self, below: nil)]
            }
        }
    }

    /// A contribution's name before its check exists: the type of the binding that
    /// `contributing(to:)` converts (the default `healthCheckName` of a check of that type; the
    /// conversion is declared where its binding is, and reads only that binding), else
    /// `health checks`.
    private nonisolated func healthCheckName(of contribution: Binding) -> String {
        if contribution.dependencies.count == 1, let converted = contribution.dependencies.first,
            table.binding(for: converted)?.location == contribution.location
        {
            return String(describing: converted.type)
        }
        return Self.unnamedSource
    }
}
