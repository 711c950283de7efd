/** The conversation runtime every front door calls (DESIGN §11). */
package dev.baton.runtime;
