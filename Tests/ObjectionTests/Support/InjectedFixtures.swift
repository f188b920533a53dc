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
