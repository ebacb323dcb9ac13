/* look.c -- the one home of how a picture looks (look.h): hp2ps's sizes
 * (10 pt text, 0.5 pt strokes, 14 pt key boxes, ticks 4 pt long at a 1-2-5
 * step of about a seventh of the axis) and hp2x's additions (lines, marks,
 * --pattern's dashes).  Read by the render files and sent to the HTML
 * report's page.
 */
#include "look.h"

const draw_look hpx_look = {
    .font_family = "Nimbus Sans",
    .font_fallback = "Helvetica, Arial, sans-serif",
    .ink = {0.0, 0.0, 0.0},
    .paper = {1.0, 1.0, 1.0},
    .text_pt = 10.0,
    .line_w = 0.5,
    .tick_len = 4.0,
    .xlabel_y = 5.0,
    .ylabel_dx = 5.0,
    .legend_dx = 7.0,
    .tick_divisions = 7.0,
    .tick_ladder = {{4.0, 5.0}, {1.0, 2.0}, {0.0, 1.0}},
    .max_ticks = 1000,
    .tick_max_decimals = 6,
    .key_box = 14.0,
    .key_box_dx = 5.0,
    .key_text_dx = 24.0,
    .heap_line_w = 1.2,
    .chart_line_w = 1.4,
    .chart_casing_w = 2.4,
    .pattern_line_w = 1.2,
    .pattern_dashes = {{0},
                       {4.0, 2.0},
                       {1.0, 1.5},
                       {6.0, 2.0, 1.0, 2.0},
                       {2.0, 2.0},
                       {8.0, 2.0, 2.0, 2.0},
                       {4.0, 1.5, 1.0, 1.5, 1.0, 1.5},
                       {1.0, 3.5}},
    .pattern_n_dashes = {0, 2, 2, 4, 2, 4, 6, 2},
    .mark_w = 0.35,
    .mark_dash = {2.0, 1.5},
    .mark_tri = 4.0,
    .mark_font_pt = 7.0,
    .mark_label_gap = 8.5,
    .mark_label_dx = 1.5,
    .mark_label_top = 2.0,
};
