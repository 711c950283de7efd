package dev.baton.example.spring;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.tool.BatonTool;
import dev.baton.runtime.tool.Param;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;

/**
 * The library's loans: the app's own service, called by its REST controllers and — through the same Spring proxy, so
 * its {@code @PreAuthorize} rules hold — by the assistant's tools. The caller is a {@link Principal} parameter, which
 * Baton fills with the signed-in user; the model never chooses it. (In memory to keep the example short; a real one
 * would be a repository under {@code @Transactional}, which holds for the tools the same way.)
 */
@Service
public class LoanService {
    public static final String READ = "loans:read";
    public static final String WRITE = "loans:write";
    public static final String MANAGE = "catalogue:manage";

    public record Book(String id, String title, String author) {}

    /**
     * @param borrower who borrowed it (Baton's caller)
     * @param recordedBy who Spring Security said was signed in when the loan was recorded
     */
    public record Loan(String bookId, String title, String tenant, String borrower, String recordedBy, Instant since) {}

    private final Map<String, Book> catalogue = new ConcurrentHashMap<>();
    private final Map<String, Loan> loans = new ConcurrentHashMap<>();
    private final Clock clock = Clock.systemUTC();

    public LoanService() {
        add(new Book("dune", "Dune", "Frank Herbert"));
        add(new Book("emma", "Emma", "Jane Austen"));
        add(new Book("ulysses", "Ulysses", "James Joyce"));
    }

    private void add(Book book) {
        catalogue.put(book.id(), book);
    }

    @BatonTool(
            name = "list_books",
            description = "List the books of the catalogue that are not on loan.",
            permissions = READ)
    public List<Book> available() {
        return catalogue.values().stream()
                .filter(b -> !loans.containsKey(b.id()))
                .sorted(Comparator.comparing(Book::title))
                .toList();
    }

    @BatonTool(name = "my_loans", description = "List the books the user has borrowed.", permissions = READ)
    public List<Loan> loansOf(Principal caller) {
        return loans.values().stream()
                .filter(l -> l.borrower().equals(caller.userId()) && l.tenant().equals(caller.tenantId()))
                .sorted(Comparator.comparing(Loan::since))
                .toList();
    }

    /**
     * Lends a book to the caller. Guarded by Spring's method security rather than the tool's permissions, so that
     * every caller of the service — a REST controller, a job, the assistant — meets the same rule.
     */
    @BatonTool(name = "borrow_book", description = "Lend a book of the catalogue to the user, by its id.")
    @PreAuthorize("hasAuthority('" + WRITE + "')")
    public Loan borrow(Principal caller, @Param(description = "The book's id, from list_books") String bookId) {
        Book book = catalogue.get(bookId);
        if (book == null) throw LoanException.notFound("no book '" + bookId + "' in the catalogue");
        String recordedBy =
                SecurityContextHolder.getContext().getAuthentication().getName();
        Loan loan = new Loan(book.id(), book.title(), caller.tenantId(), caller.userId(), recordedBy, clock.instant());
        if (loans.putIfAbsent(bookId, loan) != null)
            throw LoanException.conflict("'" + book.title() + "' is already on loan");
        return loan;
    }

    @BatonTool(name = "return_book", description = "Take back a book the user has borrowed.", permissions = WRITE)
    @PreAuthorize("hasAuthority('" + WRITE + "')")
    public Loan giveBack(Principal caller, @Param(description = "The book's id") String bookId) {
        Loan loan = loans.get(bookId);
        if (loan == null || !loan.borrower().equals(caller.userId()))
            throw LoanException.notFound("you have not borrowed '" + bookId + "'");
        loans.remove(bookId);
        return loan;
    }

    /** Takes a book out of the catalogue for good: destructive, so Baton asks the user to approve each call. */
    @BatonTool(
            name = "withdraw_book",
            description = "Remove a book from the catalogue for good.",
            permissions = MANAGE,
            destructive = true)
    @PreAuthorize("hasAuthority('" + MANAGE + "')")
    public Book withdraw(@Param(description = "The book's id") String bookId) {
        if (loans.containsKey(bookId)) throw LoanException.conflict("'" + bookId + "' is on loan");
        Book removed = catalogue.remove(bookId);
        if (removed == null) throw LoanException.notFound("no book '" + bookId + "' in the catalogue");
        return removed;
    }

    /** Every book of the catalogue, lent or not (for the app's own pages and the tests). */
    public List<Book> catalogue() {
        return new ArrayList<>(catalogue.values());
    }
}
