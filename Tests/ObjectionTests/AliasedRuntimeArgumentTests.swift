import Testing

@testable import Objection

@Suite("Runtime arguments through aliases")
struct AliasedRuntimeArgumentTests {
    @Test("an alias forwards runtime arguments to its target")
    func aliasForwardsArguments() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(ArgumentCar.self)
                .to(arguments: String.self, String.self) { _, make, model in ArgumentCar(make: make, model: model) }
            binder.bind((any Configurable).self).to(ArgumentCar.self)
        }
        let car = try await injector.get((any Configurable).self, arguments: "VW", "Passat")
        #expect(car.make == "VW")
        #expect(car.model == "Passat")
    }

    @Test("a wrong argument through an alias is reported, naming the types")
    func aliasArgumentMismatch() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(ArgumentCar.self)
                .to(arguments: String.self, String.self) { _, make, model in ArgumentCar(make: make, model: model) }
            binder.bind((any Configurable).self).to(ArgumentCar.self)
        }
        let error = await injectionError { _ = try await injector.get((any Configurable).self, arguments: 7) }
        #expect(error?.code == .argumentMismatch)
        #expect(error?.message.contains("(String, String)") == true)
    }
}
