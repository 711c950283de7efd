package dev.baton.learning.domain;

import static dev.baton.core.domain.DomainException.Kind.INVALID_ARGUMENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.auth.Principal;
import dev.baton.learning.LearningModule;
import dev.baton.learning.library.Granularity;
import dev.baton.learning.library.GranularityVerdict;
import dev.baton.learning.library.TopicMatch;
import dev.baton.learning.library.TopicSearch;
import dev.baton.learning.support.Learners;
import org.junit.jupiter.api.Test;

/**
 * The topic library's search, run once per dialect: the typo tolerance is the database's (SQLite's FTS5 trigram
 * index, PostgreSQL's pg_trgm), so each dialect must find the same entries for the design's misspellings.
 */
abstract class TopicLibraryContract extends LearningDatabaseTest {
    private final Principal alice = Learners.newLearner();

    @Test
    void quantam_fisics_finds_quantum_physics() {
        TopicSearch found = module.library().search(alice, "quantam fisics", null);

        assertThat(found.found()).isTrue();
        assertThat(found.exactMatch()).isNull();
        TopicMatch best = found.fuzzyMatches().getFirst();
        assertThat(best.entry().id()).isEqualTo("quantum-physics");
        assertThat(best.matchedTerm()).isEqualTo("quantum physics");
        assertThat(best.entry().path()).containsExactly("Physics", "Quantum physics");
        assertThat(best.score()).isBetween(0.3, 0.9);
    }

    @Test
    void ledarship_finds_leadership() {
        TopicSearch found = module.library().search(alice, "ledarship", 3);

        assertThat(found.fuzzyMatches().getFirst().entry().id()).isEqualTo("leadership");
        assertThat(found.fuzzyMatches().getFirst().entry().granularity()).isEqualTo(Granularity.SUBJECT);
    }

    @Test
    void a_name_or_alias_as_typed_is_the_exact_match_whatever_its_case_and_accents() {
        TopicSearch schrodinger = module.library().search(alice, "SCHRODINGER Equation", null);
        TopicSearch alias = module.library().search(alice, "quantum mechanics", null);

        assertThat(schrodinger.exactMatch().entry().name()).isEqualTo("Schrödinger equation");
        assertThat(schrodinger.exactMatch().score()).isEqualTo(1.0);
        assertThat(alias.exactMatch().entry().id()).isEqualTo("quantum-physics");
        assertThat(alias.fuzzyMatches()).extracting(m -> m.entry().id()).doesNotContain("quantum-physics");
    }

    @Test
    void nonsense_finds_nothing() {
        TopicSearch found = module.library().search(alice, "xqzvw blorft", null);

        assertThat(found.found()).isFalse();
        assertThat(found.fuzzyMatches()).isEmpty();
    }

    @Test
    void the_limit_bounds_the_fuzzy_matches_and_bad_input_is_refused() {
        assertThat(module.library().search(alice, "physics", 1).fuzzyMatches()).hasSizeLessThanOrEqualTo(1);
        refused(() -> module.library().search(alice, "physics", 0), INVALID_ARGUMENT, "limit must be 1-20");
        refused(() -> module.library().search(alice, "?!", null), INVALID_ARGUMENT, "letters or digits");
    }

    @Test
    void granularity_comes_from_the_library_through_filler_words_and_misspellings() {
        assertThat(verdict("physics").granularity()).isEqualTo(Granularity.SUBJECT);
        assertThat(verdict("quantum mechanics").granularity()).isEqualTo(Granularity.TOPIC);
        assertThat(verdict("Schrödinger equation").granularity()).isEqualTo(Granularity.MODULE);
        assertThat(verdict("leadership").granularity()).isEqualTo(Granularity.SUBJECT);
        assertThat(verdict("active listening").granularity()).isEqualTo(Granularity.TOPIC);
        assertThat(verdict("physics please").match().entry().id()).isEqualTo("physics");
        assertThat(verdict("teach me quantum mechanics").match().entry().id()).isEqualTo("quantum-physics");
        assertThat(verdict("I want to learn chemistry").granularity()).isEqualTo(Granularity.SUBJECT);
        assertThat(verdict("maths").match().entry().id()).isEqualTo("mathematics");
        assertThat(verdict("particle physics").granularity()).isEqualTo(Granularity.TOPIC);
        assertThat(verdict("ledarship").match().entry().id()).isEqualTo("leadership");
    }

    @Test
    void the_reasoning_says_where_the_entry_sits() {
        GranularityVerdict module = verdict("Schrödinger equation");

        assertThat(module.reasoning()).contains("module within Physics > Quantum physics");
        assertThat(module.inLibrary()).isTrue();
    }

    @Test
    void a_request_outside_the_library_is_judged_by_how_specific_it_reads() {
        GranularityVerdict gardening = verdict("gardening");
        GranularityVerdict bread = verdict("sourdough bread baking");

        assertThat(gardening.inLibrary()).isFalse();
        assertThat(gardening.granularity()).isEqualTo(Granularity.SUBJECT);
        assertThat(bread.granularity()).isEqualTo(Granularity.TOPIC);
        assertThat(bread.reasoning()).contains("not in the topic library");
    }

    @Test
    void seeding_the_library_again_changes_nothing() {
        module.seedLibrary(LearningModule.demoLibrary());

        assertThat(module.library()
                        .search(alice, "quantum mechanics", null)
                        .exactMatch()
                        .entry()
                        .id())
                .isEqualTo("quantum-physics");
    }

    private GranularityVerdict verdict(String input) {
        return module.library().detectGranularity(alice, input);
    }
}
