/// The library's own errors, built in one place so their wording stays consistent.
extension InjectionError {
    static func missingBinding(_ key: BindingKey, requestedBy parent: ResolutionFrame?)
        -> InjectionError
    {
        let path = (parent?.keys ?? []) + [key]
        var message = "No binding for '\(key)'"
        if path.count > 1 { message += " (required by \(path.arrowJoined))" }
        return InjectionError(code: .missingBinding, message: message, path: path)
    }

    /// A step asked by the asynchronous driver gave way, which no step does (see `StepMode`):
    /// reported rather than retried, so that a broken invariant ends in an error, not a loop.
    @usableFromInline static func gaveWay(_ key: BindingKey, requestedBy parent: ResolutionFrame?) -> InjectionError {
        let path = (parent?.keys ?? []) + [key]
        return InjectionError(
            code: .invalidConfiguration,
            message: "Resolving '\(key)' stopped where it must not (an Objection bug: please report it)",
            path: path
        )
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

    static func argumentMismatch(
        _ key: BindingKey,
        expected: [any Any.Type],
        given: [any Any.Type],
        path: [BindingKey] = []
    ) -> InjectionError {
        func list(_ types: [any Any.Type]) -> String { "(" + types.map { "\($0)" }.joined(separator: ", ") + ")" }
        let message =
            expected.isEmpty
            ? "'\(key)' takes no runtime arguments, but was given \(list(given))"
            : given.isEmpty
                ? "'\(key)' needs runtime arguments \(list(expected)) and has no defaults"
                : "'\(key)' takes runtime arguments \(list(expected)), but was given \(list(given))"
        return InjectionError(code: .argumentMismatch, message: message, path: path.isEmpty ? [key] : path)
    }

    static func invalidConfiguration(_ problems: [InjectionError]) -> InjectionError {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return InjectionError(
            code: .invalidConfiguration,
            message: "Invalid injector configuration (\(count)):",
            problems: problems
        )
    }

    static func scopeViolations(_ problems: [InjectionError]) -> InjectionError {
        let count = problems.count == 1 ? "1 singleton depends" : "\(problems.count) singletons depend"
        return InjectionError(
            code: .scopeViolation,
            message: "Scope violation: \(count) on request-scoped keys:",
            problems: problems
        )
    }

    /// A scoped key resolved where no request scope is open: from a root or plain child, or from a
    /// singleton's construction (which always runs in the injector that declares the singleton).
    static func scopeViolation(_ key: BindingKey, requestedBy parent: ResolutionFrame?) -> InjectionError {
        let path = (parent?.keys ?? []) + [key]
        var frame = parent
        while let current = frame, current.binding?.lifetime.isInjectorWide != true { frame = current.parent }
        let message: String
        if let holder = frame?.binding {
            message =
                "\(holderKind(holder)) '\(holder.key)' depends on scoped "
                + "'\(key)' (\(path.arrowJoined)); a singleton must not capture request values"
        } else {
            message =
                "'\(key)' is scoped to a request; resolve it inside withScope"
                + (path.count > 1 ? " (required by \(path.arrowJoined))" : "")
        }
        return InjectionError(code: .scopeViolation, message: message, path: path)
    }

    static func shutDown(isScope: Bool, key: BindingKey?) -> InjectionError {
        let what = isScope ? endedScope : "The injector has been shut down"
        let resolving = key.map { "; cannot resolve '\($0)'" } ?? ""
        return InjectionError(code: .shutDown, message: what + resolving, path: key.map { [$0] } ?? [])
    }

    /// How ``shutDown(isScope:key:)`` begins for a request scope that has ended.
    static let endedScope = "The request scope has ended"

    /// Whether this is ``shutDown(isScope:key:)`` of a request scope that has ended, rather than
    /// an injector refusing work because it is shutting down.
    var isEndedScope: Bool {
        code == .shutDown && message.hasPrefix(Self.endedScope)
    }

    /// A request scope was refused: the injector it would open on is draining for shutdown.
    static var draining: InjectionError {
        InjectionError(
            code: .shutDown,
            message: "The injector is shutting down; no new request scope is opened"
        )
    }

    /// Shutdown stopped waiting after `timeout` with `openScopes` request scopes still open and
    /// `stuck` constructions (each with the chain it waits on) still in flight.
    static func drainTimedOut(after timeout: Duration, openScopes: Int, stuck: [[BindingKey]]) -> InjectionError {
        var problems: [InjectionError] = []
        if openScopes > 0 {
            problems.append(
                InjectionError(
                    code: .timedOut,
                    message: openScopes == 1
                        ? "1 request scope was still open" : "\(openScopes) request scopes were still open"
                )
            )
        }
        problems += stuck.map { stillBeingBuilt($0) }
        return InjectionError(
            code: .timedOut,
            message: "Shutdown stopped waiting after \(timeout) and disposed what was built:",
            problems: problems
        )
    }

    static func disposalFailed(_ failures: [(key: BindingKey, error: any Error)]) -> InjectionError {
        let problems = failures.map { failure in
            InjectionError(
                code: .disposalFailed,
                message: "Disposing '\(failure.key)' failed with \(type(of: failure.error))",
                path: [failure.key],
                underlying: failure.error
            )
        }
        let count = failures.count == 1 ? "1 instance" : "\(failures.count) instances"
        return InjectionError(code: .disposalFailed, message: "Disposing \(count) failed:", problems: problems)
    }

    /// Startup's singletons, `stuck` of them with the chains of constructions they wait on, were
    /// not built within `timeout`. A chain whose construction is running ends inside the last
    /// one's provider — awaiting something that is not a binding — and says so; one that has not
    /// started (`isRunning` false) names its key alone.
    static func startupTimedOut(
        after timeout: Duration,
        stuck: [(chain: [BindingKey], isRunning: Bool)]
    ) -> InjectionError {
        let problems = stuck.map { chain, isRunning in
            guard isRunning, let last = chain.last else { return stillBeingBuilt(chain) }
            return stillBeingBuilt(
                chain, where: chain.count == 1 ? "inside its provider" : "inside the provider of '\(last)'")
        }
        let count = stuck.count == 1 ? "1 singleton was" : "\(stuck.count) singletons were"
        return InjectionError(
            code: .timedOut,
            message: "Startup did not finish within \(timeout): \(count) not built:",
            problems: problems
        )
    }

    /// A construction a deadline cut short, named with the chain of constructions it waits on and,
    /// when known, where the last of them was.
    private static func stillBeingBuilt(_ chain: [BindingKey], where place: String? = nil) -> InjectionError {
        InjectionError(
            code: .timedOut,
            message: "'\(chain[0])' was still being built" + (chain.count > 1 ? " (\(chain.arrowJoined))" : "")
                + (place.map { ", \($0)" } ?? ""),
            path: chain
        )
    }

    /// The `around` wrapper of a request scope did not enter the scope exactly once.
    @usableFromInline
    static func scopeNotEntered(times: Int) -> InjectionError {
        InjectionError(
            code: .scopeNotEntered,
            message: times == 0
                ? "The request scope's wrapper returned without calling its 'enter' closure, "
                    + "so the scope's body never ran"
                : "The request scope's wrapper called its 'enter' closure again; a scope runs its body once"
        )
    }

    /// A key declared with ``BindingBuilder/suppliedByScope()`` that the request scope resolving
    /// it does not bind.
    static func notSuppliedByScope(_ key: BindingKey, path: [BindingKey]) -> InjectionError {
        InjectionError(
            code: .missingBinding,
            message: "No binding for '\(key)' in this request scope: it is declared as supplied by request scopes, "
                + "but the scope's values and modules do not bind it"
                + (path.count > 1 ? " (required by \(path.arrowJoined))" : ""),
            path: path
        )
    }

    /// Request values (``ScopeValues``) for keys the injector binds other than as supplied by
    /// request scopes.
    static func requestValuesReplaceBindings(_ keys: [BindingKey]) -> InjectionError {
        invalidConfiguration(
            keys.map { key in
                configurationProblem(
                    "A request value is bound to '\(key)', which the injector binds: declare it with "
                        + "suppliedByScope(), or override it with withScope(modules:)",
                    key: key,
                    location: nil
                )
            }
        )
    }

    /// A declared dependency that nothing binds, found when the injector is built.
    static func missingDependency(_ key: BindingKey, path: [BindingKey], location: SourceLocation?) -> InjectionError {
        InjectionError(
            code: .missingBinding,
            message: "No binding for '\(key)' (required by \(path.arrowJoined))",
            path: path,
            location: location
        )
    }

    /// A cycle among declared dependencies, found when the injector is built.
    static func declaredCycle(_ cycle: [BindingKey], location: SourceLocation?) -> InjectionError {
        InjectionError(
            code: .circularDependency,
            message: "Circular dependency: \(cycle.arrowJoined)",
            path: cycle,
            location: location
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

extension Collection<BindingKey> {
    /// `A -> B -> C`; a path longer than 24 keys shows its first and last 10, so that a message
    /// stays readable and small however long the path (``InjectionError/path`` keeps every key).
    var arrowJoined: String {
        guard count > 24 else { return map(\.description).joined(separator: " -> ") }
        let first = prefix(10).map(\.description).joined(separator: " -> ")
        let last = suffix(10).map(\.description).joined(separator: " -> ")
        return "\(first) -> … \(count - 20) more … -> \(last)"
    }
}
