/// The library's own errors, built in one place so their wording stays consistent.
extension InjectionError {
    @usableFromInline
    static func missingBinding(_ key: BindingKey, requestedBy parent: ResolutionFrame?) -> InjectionError {
        let path = (parent?.keys ?? []) + [key]
        var message = "No binding for '\(key)'"
        if path.count > 1 { message += " (required by \(path.arrowJoined))" }
        return InjectionError(code: .missingBinding, message: message, path: path)
    }

    static func circularDependency(cycle: [BindingKey], path: [BindingKey]) -> InjectionError {
        InjectionError(
            code: .circularDependency,
            message: "Circular dependency: \(cycle.arrowJoined)",
            path: path
        )
    }

    static func depthLimitExceeded(limit: Int, path: [BindingKey]) -> InjectionError {
        let shown = path.count > 6 ? Array(path.prefix(3)) + Array(path.suffix(3)) : path
        let chain =
            path.count > 6
            ? shown.prefix(3).arrowJoined + " -> ... -> " + shown.suffix(3).arrowJoined
            : shown.arrowJoined
        return InjectionError(
            code: .depthLimitExceeded,
            message: "Resolution depth exceeded the limit of \(limit) while resolving \(chain)",
            path: path
        )
    }

    @usableFromInline
    static func typeMismatch(
        _ key: BindingKey,
        produced: any Any.Type,
        path: [BindingKey]
    ) -> InjectionError {
        InjectionError(
            code: .typeMismatch,
            message: "The binding for '\(key)' produced a '\(produced)', which is not a '\(key.typeName)'",
            path: path
        )
    }

    static func invalidConfiguration(_ problems: [InjectionError]) -> InjectionError {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return InjectionError(
            code: .invalidConfiguration,
            message: "Invalid injector configuration (\(count)):",
            problems: problems
        )
    }

    static func configurationProblem(
        _ message: String,
        key: BindingKey,
        location: SourceLocation?
    ) -> InjectionError {
        InjectionError(code: .invalidConfiguration, message: message, path: [key], location: location)
    }
}

extension Sequence<BindingKey> {
    /// `A -> B -> C`.
    var arrowJoined: String { map(\.description).joined(separator: " -> ") }
}
