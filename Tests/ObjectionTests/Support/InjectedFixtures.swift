import Objection

/// A vehicle protocol-like superclass whose engine is injected, counting its awake calls.
class CountingVehicle: PropertyInjectable, @unchecked Sendable {
    var engine: Engine?
    let awakenings = Counter()

    init() {}

    class var injectedProperties: [InjectedProperty] { [.property(\CountingVehicle.engine)] }

    func awakeFromInjection() async throws { awakenings.increment() }
}

/// A concrete vehicle built by an autowired initializer.
final class CountingSedan: CountingVehicle, @unchecked Sendable {
    override init() {}
}

/// A disposable resource that counts its disposals.
final class CountedResource: AsyncDisposable {
    let disposals = Counter()

    init() {}

    func dispose() async throws { disposals.increment() }
}

/// Something a configurable car conforms to, for aliases with runtime arguments.
protocol Configurable: Sendable {
    var make: String { get }
    var model: String { get }
}

/// A car configured at the call, reached through the ``Configurable`` alias.
struct ArgumentCar: Configurable {
    let make: String
    let model: String
}

// MARK: - Just-in-time types

/// Declares everything itself: resolves with no binding.
final class Garage: Injectable {
    let engine: Engine
    init(engine: Engine) { self.engine = engine }
    static let injection = Injection(Garage.init)
}

/// A just-in-time singleton.
final class Registry: Injectable {
    static let injection = Injection(Registry.init).asSingleton()
}

/// A just-in-time type scoped to a request.
final class RequestLedger: Injectable {
    static let injection = Injection(RequestLedger.init).inScope(.scoped)
}

/// A just-in-time type with no dependencies, for the check's treatment of ``Injectable``.
final class InjectableClock: Injectable {
    static let injection = Injection(InjectableClock.init)
}
