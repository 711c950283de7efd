package dev.baton.example.embedded;

import dev.baton.core.auth.Principal;
import dev.baton.example.embedded.ReadingList.Book;
import dev.baton.runtime.tool.BatonTool;
import dev.baton.runtime.tool.Param;
import java.util.List;

/**
 * The reading list as tools the model may call, each one call of the service as the signed-in user. Before a method
 * runs, Baton has checked the caller's permissions and validated the arguments against the schema it generated from
 * the parameters; the {@link Principal} is injected and never part of that schema.
 */
public final class ReadingListTools {
    public static final String READ = "books:read:self";
    public static final String WRITE = "books:write:self";

    private final ReadingList books;

    public ReadingListTools(ReadingList books) {
        this.books = books;
    }

    @BatonTool(name = "add_book", description = "Add a book to the user's reading list.", permissions = WRITE)
    public Book addBook(Principal caller, @Param(description = "The book's title") String title) {
        return books.add(caller, title);
    }

    @BatonTool(name = "list_books", description = "List the books on the user's reading list.", permissions = READ)
    public List<Book> listBooks(Principal caller) {
        return books.list(caller);
    }

    @BatonTool(
            name = "mark_read",
            description = "Mark a book on the user's reading list as read. Call list_books first for its id.",
            permissions = WRITE)
    public Book markRead(Principal caller, @Param(description = "The book's id from list_books") String bookId) {
        return books.markRead(caller, bookId);
    }
}
