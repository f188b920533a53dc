import Testing

@testable import Objection

@Suite("Contributing a binding to a collection", .hangLimit)
struct ContributingTests {
    protocol Runnable: Sendable {}
    final class Database: Runnable {}
    final class Mailer: Runnable {}

    @Test("a singleton contributes its one instance; the collection lists contributions in order")
    func singletonContributes() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Database.self).to(Database.init).asSingleton().contributing(to: (any Runnable).self) { $0 }
            binder.bind(Mailer.self, named: "smtp").to(Mailer.init).asSingleton()
                .contributing(to: (any Runnable).self) { $0 }
        }
        let runnables = try await injector.get([any Runnable].self)
        #expect(runnables.count == 2)
        #expect(runnables[0] as? Database === (try await injector.get(Database.self)))
        #expect(runnables[1] as? Mailer === (try await injector.get(Mailer.self, named: "smtp")))
    }

    @Test("the contribution is a declared dependency: a cycle through it is refused at creation")
    func contributionIsChecked() async throws {
        final class Loop: Runnable {
            init(all: [any Runnable]) {}
        }
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Loop.self).to(Loop.init).asSingleton().contributing(to: (any Runnable).self) { $0 }
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.problems.first?.code == .circularDependency)
    }

    @Test("a declared singleton that collects a scoped contribution is refused at creation, as a captive")
    func scopedContributionIsCaptive() async throws {
        final class Runner: Sendable {
            init(all: [any Runnable]) {}
        }
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.contribute((any Runnable).self).to(Database.init)
                binder.contribute((any Runnable).self).to { _ in Mailer() }.inScope(.scoped)
                binder.bind(Runner.self).to(Runner.init).asSingleton()
            }
        }
        #expect(error?.code == .scopeViolation)
        let message = try #require(error?.problems.first?.message)
        #expect(message.hasPrefix("Singleton 'Runner' depends on scoped"))
    }

    @Test("contributing to the same collection twice contributes once")
    func contributesOnce() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Database.self).to(Database.init).asSingleton()
                .contributing(to: (any Runnable).self) { $0 }
                .contributing(to: (any Runnable).self) { $0 }
        }
        #expect(try await injector.get([any Runnable].self).count == 1)
    }

    @Test("a named collection is separate from the unnamed one")
    func namedCollection() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Database.self).to(Database.init).asSingleton()
                .contributing(to: (any Runnable).self, named: "services") { $0 }
        }
        #expect(try await injector.get([any Runnable].self, named: "services").count == 1)
        #expect(try await injector.getIfBound([any Runnable].self) == nil)
    }
}
