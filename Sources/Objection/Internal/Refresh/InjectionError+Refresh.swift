extension InjectionError {
    /// A singleton (or another refreshable binding) reaching a refreshable one: it would keep the
    /// generation it was built with through every refresh.
    static func refreshableCaptured(_ key: BindingKey, by holder: Binding, path: [BindingKey]) -> InjectionError {
        InjectionError(
            code: .scopeViolation,
            message: "\(holderKind(holder)) '\(holder.key)' depends on "
                + "refreshable '\(key)' (\(path.arrowJoined)); it would keep a replaced instance: depend on "
                + "Factory<\(key.type)> and resolve it per use",
            path: path,
            location: holder.location
        )
    }

    /// How an error names a binding that holds a value past a request: "Singleton",
    /// "Refreshable" or "Custom-scoped".
    static func holderKind(_ holder: Binding) -> String {
        switch holder.scope.kind {
        case .refreshable: "Refreshable"
        case .custom: "Custom-scoped"
        default: "Singleton"
        }
    }

    /// A key given to ``InjectorActor/refresh(_:named:within:)`` whose binding is not refreshable.
    static func notRefreshable(_ binding: Binding) -> InjectionError {
        InjectionError(
            code: .scopeViolation,
            message: "'\(binding.key)' is \(binding.scope), not refreshable: declare it with asRefreshable()",
            path: [binding.key],
            location: binding.location
        )
    }

    /// The rebuilds of a refresh that failed, each named with its error's type only (the error
    /// itself, which may quote a setting, is the problem's `underlying`).
    static func refreshFailed(_ failures: [(key: BindingKey, error: any Error)]) -> InjectionError {
        let problems = failures.map { key, error in
            InjectionError(
                code: (error as? InjectionError)?.code ?? .refreshFailed,
                message: "Rebuilding '\(key)' failed with \(type(of: error)); the previous instance keeps serving",
                path: [key],
                underlying: error
            )
        }
        let count = failures.count == 1 ? "1 binding" : "\(failures.count) bindings"
        return InjectionError(
            code: .refreshFailed,
            message: "Refresh failed for \(count): " + failures.map { "'\($0.key)'" }.joined(separator: ", "),
            path: failures.map(\.key),
            problems: problems
        )
    }

    /// A rebuild still running at the refresh's deadline.
    static func refreshTimedOut(_ key: BindingKey, after deadline: Duration) -> InjectionError {
        InjectionError(
            code: .timedOut,
            message: "Rebuilding '\(key)' did not finish within \(deadline); it was cancelled",
            path: [key]
        )
    }
}
