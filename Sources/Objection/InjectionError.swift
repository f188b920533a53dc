/// The error every injector operation throws for a problem of the injector's own: a missing
/// binding, a cycle, a bad configuration, a runaway resolution depth.
///
/// Errors thrown by your providers are *not* wrapped: they reach the caller of `get` unchanged.
///
/// An `InjectionError` names types and binding names only, never resolved values, so it is safe to
/// log. Its ``path`` lists the keys from the outermost request to the one that failed, and its
/// ``description`` reads like
/// `No binding for 'PaymentGateway' (required by CheckoutService -> OrderService -> PaymentGateway)`.
///
/// Match on ``code`` rather than on the message; two errors are equal when their codes are equal.
///
/// ```swift
/// do {
///     _ = try await injector.get(CheckoutService.self)
/// } catch let error as InjectionError where error.code == .missingBinding {
///     logger.error("\(error)")
/// }
/// ```
public struct InjectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a stable value to match on.
    public let code: Code
    /// A sentence describing the problem, naming types only.
    public let message: String
    /// The keys being resolved, from the outermost request to the failing one.
    public let path: [BindingKey]
    /// The individual problems, for ``Code/invalidConfiguration``: every one found, each with its
    /// own path and location. Empty for other codes.
    public let problems: [InjectionError]
    /// Where the binding involved was declared, when known.
    public let location: SourceLocation?
    /// The error that caused this one, such as a failing `dispose()`.
    public let underlying: (any Error)?

    /// Creates an error; the library creates these, but tests and adapters may need to.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: A sentence naming the types involved, never values.
    ///   - path: The keys being resolved, outermost first.
    ///   - problems: The individual problems of an aggregate error.
    ///   - location: Where the binding involved was declared.
    ///   - underlying: The error that caused this one.
    public init(
        code: Code,
        message: String,
        path: [BindingKey] = [],
        problems: [InjectionError] = [],
        location: SourceLocation? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.problems = problems
        self.location = location
        self.underlying = underlying
    }

    /// The message, followed by each aggregated problem on its own line.
    public var description: String {
        var text = message
        for problem in problems {
            text += "\n  - \(problem.description)"
            if let location = problem.location { text += " [\(location)]" }
        }
        return text
    }

    /// Errors are equal when their codes are equal, so `#expect(throws:)` and `catch` patterns
    /// can match on the kind of problem without restating its message.
    public static func == (lhs: InjectionError, rhs: InjectionError) -> Bool {
        lhs.code == rhs.code
    }
}

extension InjectionError {
    /// The kind of an ``InjectionError``.
    ///
    /// A struct rather than an enum so that adding a code is not a breaking change.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// A key was requested that no module binds.
        public static let missingBinding = Code("missingBinding")
        /// Resolving a key needed that same key again, in one task or across tasks.
        public static let circularDependency = Code("circularDependency")
        /// The modules are inconsistent; ``InjectionError/problems`` lists every problem found.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// Resolution went deeper than the injector's `maxResolutionDepth`.
        public static let depthLimitExceeded = Code("depthLimitExceeded")
        /// A binding produced a value that is not of the bound type.
        public static let typeMismatch = Code("typeMismatch")
        /// A ``Scope/scoped`` key was resolved outside a request scope, or a singleton depends on
        /// one (a captive dependency: the singleton would outlive the request).
        public static let scopeViolation = Code("scopeViolation")
        /// Runtime arguments do not match what the binding takes: their number or their types, or
        /// none were given to a binding without defaults.
        public static let argumentMismatch = Code("argumentMismatch")
        /// The injector was shut down, or the request scope has ended.
        public static let shutDown = Code("shutDown")
        /// Disposing built instances failed; ``InjectionError/problems`` has one entry per failure,
        /// each with its ``InjectionError/underlying`` error.
        public static let disposalFailed = Code("disposalFailed")
        /// Singletons built at startup were not all built within the startup deadline
        /// (``Startup/immediate(within:)``, ``InjectorActor/start(within:)``);
        /// ``InjectionError/problems`` has one entry per singleton still being built, with the
        /// chain of constructions it was waiting on as its path.
        public static let timedOut = Code("timedOut")
        /// A request scope was entered other than once: the `around` wrapper of
        /// ``InjectorActor/withScope(around:_:)`` returned without calling its `enter` closure, or
        /// called it a second time.
        public static let scopeNotEntered = Code("scopeNotEntered")
        /// A configuration setting that a provider needs is missing or malformed
        /// (``InjectionError/invalidSetting(_:_:path:)``); the message names the setting's key and
        /// the binding path that needed it, never the setting's value.
        public static let invalidSetting = Code("invalidSetting")
        /// ``InjectorActor/refresh(within:)`` could not build a new instance of every binding it
        /// was asked to: the previous instances keep serving. ``InjectionError/problems`` has one
        /// entry per binding, naming it and the error's type, with the error as
        /// ``InjectionError/underlying`` (a rebuild past its deadline is ``timedOut``).
        public static let refreshFailed = Code("refreshFailed")

        /// The code's name, such as `missingBinding`.
        public var description: String { name }
    }

    /// A place in source code, captured where a binding is declared.
    public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
        /// The file, as `#fileID` spells it (`Module/File.swift`).
        public let fileID: String
        /// The line number.
        public let line: Int

        /// Creates a location.
        ///
        /// - Parameters:
        ///   - fileID: The file, as `#fileID` spells it.
        ///   - line: The line number.
        public init(fileID: String, line: Int) {
            self.fileID = fileID
            self.line = line
        }

        /// `Module/File.swift:42`.
        public var description: String { "\(fileID):\(line)" }
    }
}
