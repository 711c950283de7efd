package dev.baton.example.spring;

import dev.baton.core.agent.AgentDefinition;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A library's loans app with an assistant: {@link LoanService} is the app's own service, its {@code @BatonTool} methods
 * are the assistant's tools, Spring Security's JWT user is the assistant's caller, and Baton's HTTP API is served
 * under {@code /assistant}. See docs/spring-boot.md.
 */
@SpringBootApplication
public class LibraryApplication {

    /** The assistant: an agent of the app's own, offered first. */
    @Bean
    AgentDefinition librarian() {
        return AgentDefinition.of(
                "librarian",
                "You are the library's assistant. Use the tools to find books, lend them and take them back; never"
                        + " guess a book's id.",
                "openai:gpt-4o-mini",
                List.of("list_books", "my_loans", "borrow_book", "return_book", "withdraw_book"));
    }

    public static void main(String[] args) {
        SpringApplication.run(LibraryApplication.class, args);
    }
}
