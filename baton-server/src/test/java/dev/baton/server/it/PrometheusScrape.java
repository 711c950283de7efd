package dev.baton.server.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scrape of {@code GET /metrics}, parsed from the Prometheus text format (version 0.0.4): the samples with their
 * labels and values, and the {@code # TYPE} of each family. Parsing it here, rather than trusting the registry, is
 * what checks that a real scraper would read the series the tests expect.
 */
final class PrometheusScrape {

    record Sample(String name, Map<String, String> labels, double value) {}

    private final List<Sample> samples;
    private final Map<String, String> types;

    private PrometheusScrape(List<Sample> samples, Map<String, String> types) {
        this.samples = List.copyOf(samples);
        this.types = Map.copyOf(types);
    }

    static PrometheusScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) continue;
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                types.put(parts[0], parts[1]);
                continue;
            }
            if (line.startsWith("#")) continue;
            samples.add(sample(line));
        }
        return new PrometheusScrape(samples, types);
    }

    private static Sample sample(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        if (brace < 0 || brace > space) {
            return new Sample(line.substring(0, space), Map.of(), value(line.substring(space + 1)));
        }
        String name = line.substring(0, brace);
        Map<String, String> labels = new LinkedHashMap<>();
        int i = brace + 1;
        while (line.charAt(i) != '}') {
            int eq = line.indexOf('=', i);
            String key = line.substring(i, eq);
            if (line.charAt(eq + 1) != '"') throw new IllegalArgumentException("unquoted label value: " + line);
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; line.charAt(j) != '"'; j++) {
                char c = line.charAt(j);
                if (c == '\\') {
                    char next = line.charAt(++j);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
            }
            labels.put(key, value.toString());
            i = j + 1;
            if (line.charAt(i) == ',') i++;
        }
        return new Sample(name, labels, value(line.substring(i + 1).strip()));
    }

    private static double value(String text) {
        String v = text.split(" ")[0];
        return switch (v) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(v);
        };
    }

    /** Every sample of the series {@code name} whose labels include {@code labels} (name, value, name, value…). */
    List<Sample> find(String name, String... labels) {
        Map<String, String> wanted = pairs(labels);
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .filter(s -> s.labels().entrySet().containsAll(wanted.entrySet()))
                .toList();
    }

    /** The value of the one sample that matches, or 0 when none does (a counter not yet incremented). */
    double value(String name, String... labels) {
        List<Sample> found = find(name, labels);
        if (found.size() > 1) {
            throw new AssertionError("more than one sample of " + name + " " + pairs(labels) + ": " + found);
        }
        return found.isEmpty() ? 0 : found.getFirst().value();
    }

    /** The name of every series scraped. */
    java.util.Set<String> names() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        samples.forEach(s -> names.add(s.name()));
        return names;
    }

    /** Whether any sample of the series exists. */
    boolean has(String name, String... labels) {
        return !find(name, labels).isEmpty();
    }

    /** The {@code # TYPE} of a family: counter, gauge, histogram… */
    String type(String family) {
        return types.get(family);
    }

    /** Every label value of {@code label} across the samples of {@code name}. */
    List<String> labelValues(String name, String label) {
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .map(s -> s.labels().get(label))
                .distinct()
                .toList();
    }

    private static Map<String, String> pairs(String... labels) {
        if (labels.length % 2 != 0) throw new IllegalArgumentException("labels come in name, value pairs");
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < labels.length; i += 2) map.put(labels[i], labels[i + 1]);
        return map;
    }
}
