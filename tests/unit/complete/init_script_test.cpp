#include "init/init_script.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

using trainjob::python_without_trailing_blanks;

TEST_CASE("python_without_trailing_blanks: blanks outside strings go, a string's stay") {
  size_t lines = 0;
  std::vector<size_t> kept;
  std::string script =
      "import os  \n"
      "x = 1\t\n"
      "\n"
      "def f():\n"
      "    \"\"\"Doc.\n"
      "    \n"  // inside the docstring: content
      "    \"\"\"  \n"
      "    s = '\"\"\"'  # not a triple quote: in a one-line string  \n"
      "    return s   ";
  std::string out = python_without_trailing_blanks(script, &lines, &kept);
  CHECK(out ==
        "import os\n"
        "x = 1\n"
        "\n"
        "def f():\n"
        "    \"\"\"Doc.\n"
        "    \n"
        "    \"\"\"\n"
        "    s = '\"\"\"'  # not a triple quote: in a one-line string\n"
        "    return s");
  CHECK(lines == 5);
  CHECK(kept == std::vector<size_t>{6});
}

TEST_CASE("python_without_trailing_blanks: a clean script is left as it is") {
  size_t lines = 1;
  std::vector<size_t> kept = {3};
  std::string script = "print('a  ')\n# comment with ''' in it\nprint(\"b\")\n";
  CHECK(python_without_trailing_blanks(script, &lines, &kept) == script);
  CHECK(lines == 0);
  CHECK(kept.empty());
}
